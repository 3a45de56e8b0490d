# cli/: the `oware` command-line tool (build/oware).
CLI_SRC := cli/oware.c cli/cli.c cli/best.c cli/study.c cli/togyz.c
EXTRA_CFLAGS_cli := $(JANSSON_CFLAGS)

$(BUILD)/oware: $(CLI_SRC:%.c=$(BUILD)/%.o) $(PROTO_OBJ) $(ENGINE_OBJ)
	$(CC) $(CFLAGS) $(OW_LDFLAGS) -o $@ $^ $(JANSSON_LIBS)
ALL += $(BUILD)/oware

.PHONY: test-cli
test-cli: $(BUILD)/oware $(BUILD)/oware.egdb
	EGDB=$(BUILD)/oware.egdb sh tests/cli/test_cli.sh $(BUILD)/oware
TESTS += test-cli

# The Togyz Kumalak commands (`--game togyz`), apart from test-cli.
.PHONY: test-cli-togyz
test-cli-togyz: $(BUILD)/oware
	sh tests/cli/test_togyz_cli.sh $(BUILD)/oware
TESTS += test-cli-togyz
