/*
 * text.h -- untrusted text made safe to print on a terminal.
 *
 * Error messages quote what they reject (a token of a CDF, a node name, a
 * path), and that text comes from files anyone may hand us.  Printed raw,
 * an ESC sequence in it would drive the user's terminal (move the cursor,
 * rewrite the title, hide the rest of the message).  Every message builder
 * (config.c, workload.c, topology.c, scenario.c, and cli_errorf for the
 * roccsim command's own messages) passes its finished
 * message through text_escape(), so no caller has to remember to.
 *
 * What is rewritten, as \xNN (two lowercase hex digits) per byte:
 *   - C0 controls 0x00-0x1f (tab, CR and LF included: a message is one
 *     line) and DEL 0x7f;
 *   - bytes that are not part of well-formed UTF-8 (RFC 3629: no overlong
 *     forms, no surrogates, nothing above U+10FFFF, no truncated sequence);
 *   - the C1 controls U+0080-U+009F, whose UTF-8 form (0xc2 0x80-0x9f) some
 *     terminals act on (U+009B is CSI).
 * Everything else, printable ASCII and well-formed UTF-8 alike, is copied
 * unchanged, so a message without such bytes is byte-identical and
 * escaping twice changes nothing more.  A backslash is left as is.
 */
#ifndef ROCC_TEXT_H
#define ROCC_TEXT_H
#include <stddef.h>

/* Escape the NUL-terminated src into dst (dstlen bytes, always
 * NUL-terminated when dstlen > 0).  Output that does not fit is cut before
 * the first character or escape that would not fit whole.  Returns the
 * length written.  dst and src must not overlap. */
size_t text_escape(char *dst, size_t dstlen, const char *src);

/* Escape s in place (a buffer of cap bytes holding a string): the escaped
 * form replaces it, cut as above.  For message buffers filled by
 * vsnprintf. */
void text_escape_inplace(char *s, size_t cap);

#endif
