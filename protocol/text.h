/* text.h: the text people type into a room (names, chat lines), checked
 * as PROTOCOL.md ("Names and chat") says: valid UTF-8, trimmed of white
 * space at both ends, then 1 to a maximum of code points, none of them a
 * control (Cc), format (Cf), private-use (Co), line or paragraph separator
 * (Zl, Zp) or noncharacter. No JSON library, no allocation. */
#ifndef PROTO_TEXT_H
#define PROTO_TEXT_H

#include <stddef.h>

#define PROTO_NAME_MAX 24                     /* code points of a name */
#define PROTO_CHAT_MAX 300                    /* code points of a chat line */
#define PROTO_NAME_BYTES (PROTO_NAME_MAX * 4) /* its UTF-8 bytes at most */
#define PROTO_CHAT_BYTES (PROTO_CHAT_MAX * 4)

/* Checks the len bytes at s (need not be NUL-terminated) and copies the
 * trimmed text, NUL-terminated, into out (outsz bytes, at least
 * max_cp * 4 + 1). Returns its length in bytes, or -1 with *why set to a
 * one-line English reason (out is then unspecified). */
int proto_text_clean(const char *s, size_t len, int max_cp, char *out, size_t outsz,
                     const char **why);

#endif
