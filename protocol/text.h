/* text.h: the text people type into a room (names, chat lines), checked
 * as PROTOCOL.md ("Names and chat") says: valid UTF-8, trimmed of white
 * space at both ends, then 1 to a maximum of code points, none of them a
 * control (Cc), format (Cf), private-use (Co), line or paragraph separator
 * (Zl, Zp) or noncharacter, and no more than 4 combining marks in a row;
 * a name also needs a visible character and may not read as a side's
 * name. No JSON library, no allocation (ICU's, once, for the name
 * check). */
#ifndef PROTO_TEXT_H
#define PROTO_TEXT_H

#include <stddef.h>

#define PROTO_NAME_MAX 24                     /* code points of a name */
#define PROTO_CHAT_MAX 300                    /* code points of a chat line */
#define PROTO_NAME_BYTES (PROTO_NAME_MAX * 4) /* its UTF-8 bytes at most */
#define PROTO_CHAT_BYTES (PROTO_CHAT_MAX * 4)
#define PROTO_MARKS_MAX 4                     /* combining marks in a row */

/* Checks the len bytes at s (need not be NUL-terminated) and copies the
 * trimmed text, NUL-terminated, into out (outsz bytes, at least
 * max_cp * 4 + 1). Returns its length in bytes, or -1 with *why set to a
 * one-line English reason (out is then unspecified). */
int proto_text_clean(const char *s, size_t len, int max_cp, char *out, size_t outsz,
                     const char **why);

/* The rules of a name beyond proto_text_clean's (PROTOCOL.md, "Names and
 * chat"), on a cleaned NUL-terminated name: 0, or -1 with *why set (a
 * static string) when it has no visible character (only spaces,
 * combining marks, Hangul fillers, blank Braille) or when its reading,
 * case folded or as typed, is a side's in a language of the page: NFKC,
 * letter symbols as letters, then Unicode's confusable skeleton (ICU's
 * uspoof_getSkeleton) without marks, small capitals as letters, case
 * folded, until it stays the same; white space, punctuation and symbols
 * passed over. ICU's data is read once, on the first call (thread-safe);
 * if it cannot be, every name is refused. */
int proto_name_check(const char *name, const char **why);

#endif
