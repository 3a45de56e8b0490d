/* text.h: the text people type into a room (names, chat lines), checked
 * as PROTOCOL.md ("Names and chat") says: valid UTF-8, trimmed of white
 * space at both ends, then 1 to a maximum of code points, none of them a
 * control (Cc), format (Cf), private-use (Co), line or paragraph separator
 * (Zl, Zp) or noncharacter, and no more than 4 combining marks in a row;
 * a name also needs a visible character and may not read as a side's
 * name; in a club event it may not read as another player's name or as
 * a word of the event. No JSON library, no allocation (ICU's, once, for the name
 * check). */
#ifndef PROTO_TEXT_H
#define PROTO_TEXT_H

#include <stddef.h>

#define PROTO_NAME_MAX 24                     /* code points of a name */
#define PROTO_CHAT_MAX 300                    /* code points of a chat line */
#define PROTO_NAME_BYTES (PROTO_NAME_MAX * 4) /* its UTF-8 bytes at most */
#define PROTO_CHAT_BYTES (PROTO_CHAT_MAX * 4)
#define PROTO_MARKS_MAX 4                     /* combining marks in a row */
#define PROTO_NAME_KEY_BYTES 12289            /* a name's key (proto_name_key), NUL included */

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
 * passed over, before the skeletons and again after them (both ways are
 * read). The sides' names are every form the page shows in every
 * language (protocol/text_words.h, made from the language files). ICU's
 * data is read once, on the first call (thread-safe); if it cannot be,
 * every name is refused. */
int proto_name_check(const char *name, const char **why);

/* The reading of a name that tells names apart (PROTOCOL.md, "Names and
 * chat"): proto_name_check's case folded reading, punctuation and
 * symbols passed over before the skeletons, as NUL-terminated UTF-8 in
 * out (outsz bytes; PROTO_NAME_KEY_BYTES is always enough). Two names
 * with the same key look alike ("Ama" and Cyrillic "Аmа", "José" and
 * "Jose"). Returns the key's length, or -1 (ICU fails, out too small). */
int proto_name_key(const char *name, char *out, size_t outsz);

/* 1 when a cleaned name reads, as proto_name_check reads it, as a word a
 * club event's page, protocol or exports use for a result, a bye, a
 * forfeit, a withdrawal or the organiser (protocol/text_words.h), ends
 * with what the event page puts after a withdrawn player's name ("Ama
 * (withdrawn)"), or reads as nothing at all ("?": only punctuation,
 * symbols and spaces); *word is then that word as the page writes it (a
 * static string; "" for nothing). 0 when it does not; -1 when ICU fails. */
int proto_name_event_word(const char *name, const char **word);

#endif
