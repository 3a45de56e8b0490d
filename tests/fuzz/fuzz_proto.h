/* fuzz_proto.h: a check shared by the fuzz targets of the protocol's
 * parsers (fuzz_message, fuzz_position). */
#ifndef FUZZ_FUZZ_PROTO_H
#define FUZZ_FUZZ_PROTO_H

#include <string.h>
#include <jansson.h>

#include "protocol/message.h"
#include "tests/fuzz/fuzz.h"

/* A refusal's reason err (errlen bytes of room) is a non-empty line that
 * fits, and goes out in an `error` of code exactly as it is (valid UTF-8:
 * nothing replaced on the way). */
static inline void fuzz_check_reason(int code, const char *err, size_t errlen)
{
	size_t n = strnlen(err, errlen);
	const json_t *m;
	json_t *e;
	jw out;

	FUZZ_CHECK(n > 0 && n < errlen);
	FUZZ_CHECK(!memchr(err, '\n', n));
	jw_init(&out);
	proto_error_write(&out, code, err);
	FUZZ_CHECK(!out.oom);
	e = json_loadb(out.buf, out.len, JSON_REJECT_DUPLICATES, NULL);
	FUZZ_CHECK(e != NULL);
	m = json_object_get(e, "message");
	FUZZ_CHECK(json_is_string(m));
	FUZZ_CHECK_EQ(json_string_length(m), n);
	FUZZ_CHECK(!memcmp(json_string_value(m), err, n));
	json_decref(e);
	jw_free(&out);
}

#endif
