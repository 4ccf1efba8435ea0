/* text.c -- terminal-safe rendering of untrusted text; see text.h. */
#include "core/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Length of the well-formed, printable UTF-8 sequence at s (2..4), or 0 if
 * the byte s[0] (>= 0x80) must be escaped. */
static size_t utf8_ok(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) { n = 2; cp = c & 0x1fu; }
    else if (c >= 0xe0 && c <= 0xef) { n = 3; cp = c & 0x0fu; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 4; cp = c & 0x07u; }
    else return 0;                  /* continuation byte, 0xc0/0xc1, > 0xf4 */
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;  /* also stops at the NUL */
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;  /* overlong, too big */
    if (cp >= 0xd800 && cp <= 0xdfff) return 0;                                             /* surrogate */
    if (cp >= 0x80 && cp <= 0x9f) return 0;                                                 /* C1 control */
    return n;
}

size_t text_escape(char *dst, size_t dstlen, const char *src)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)src;
    size_t o = 0;
    if (dstlen == 0) return 0;
    while (*s) {
        size_t n = *s >= 0x20 && *s < 0x7f ? 1 : *s >= 0x80 ? utf8_ok(s) : 0;
        if (n) {
            if (o + n >= dstlen) break;
            memcpy(dst + o, s, n);
            o += n;
            s += n;
        } else {
            if (o + 4 >= dstlen) break;
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[*s >> 4];
            dst[o++] = hex[*s & 15];
            s++;
        }
    }
    dst[o] = '\0';
    return o;
}

void text_escape_inplace(char *s, size_t cap)
{
    char small[1024];
    if (cap == 0) return;
    char *tmp = cap <= sizeof small ? small : malloc(cap);
    if (!tmp) {                     /* no memory: blank out what is unsafe */
        for (unsigned char *p = (unsigned char *)s; *p; p++)
            if (*p < 0x20 || *p >= 0x7f) *p = '?';
        return;
    }
    text_escape(tmp, cap, s);
    memcpy(s, tmp, strlen(tmp) + 1);
    if (tmp != small) free(tmp);
}
