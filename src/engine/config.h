/*
 * config.h -- scenario files: INI text in, typed values and precise errors
 * out.
 *
 * A file is a list of lines, each one of
 *     [section]             name: [A-Za-z0-9_.-]+  ("flows.bulk")
 *     key = value           key:  [A-Za-z0-9_.:@()->] words joined by single
 *                           spaces ("flow_rate all @ 10ms..20ms"); blank runs
 *                           inside a key are collapsed to one space
 *     # comment / ; comment
 *     (blank)
 * Keys belong to the last section header; a key before any header, an
 * empty value, a duplicate key in one section (a section may be reopened),
 * a control character, or a line over CFG_MAX_LINE bytes is an error.
 * A value runs from the first non-blank after the first '=' to the end of
 * the line or to a '#' or ';' that starts the value or follows a blank
 * ("rate = 40G  # x" is "40G"; "a;b" stays "a;b").  LF or CRLF line ends,
 * a UTF-8 BOM, and a missing final newline are all fine.  No quoting, no
 * includes, no interpolation.
 *
 * The whole file is read at load; every string lives until cfg_free(), so
 * pointers handed out (entries, values) stay valid even across cfg_set().
 *
 * Usage tracking catches typos: cfg_find(), the typed getters and
 * cfg_entries() mark the entry used and the section "looked at" (even when
 * the key is absent).  cfg_check_unused() then reports the first entry, in
 * file order, nobody read: "unknown key", or "unknown section [x]" when no
 * lookup ever named its section.  cfg_has_section() and cfg_sections() are
 * const and mark nothing.
 *
 * Every error is one line in struct cfg_err, in the form
 *     FILE:LINE: [section] key: what is wrong
 * or "FILE:LINE: what" / "FILE: what" when there is no key or no line.
 * Overrides from the command line (cfg_set) have FILE "--set" and LINE the
 * argument's index.  err may be NULL anywhere to discard the message.
 */
#ifndef ROCC_CONFIG_H
#define ROCC_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define CFG_MAX_LINE 4096 /* bytes per line, not counting the line end */

/* Config readers return 0 or -1 (with the error in their cfg_err): TRY
 * passes a failure up, so a reader is a column of TRY(cfg_...) lines. */
#define TRY(x) do { if ((x) < 0) return -1; } while (0)

#if defined(__GNUC__)
#define CFG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CFG_PRINTF(f, a)
#endif

struct cfg; /* opaque; owns all strings */
struct cfg_entry { const char *section, *key, *value, *file; int line; int used; };
struct cfg_err { char msg[512]; };

/* Read and parse a file; NULL with err on any error (missing file:
 * "PATH: cannot open: <strerror>"). */
struct cfg *cfg_load(const char *path, struct cfg_err *err);
/* The same from memory (len bytes, need not be NUL-terminated); name plays
 * the role of the path in messages. */
struct cfg *cfg_parse(const char *name, const char *text, size_t len, struct cfg_err *err);
void cfg_free(struct cfg *c);
const char *cfg_path(const struct cfg *c);

/* Command-line override "section.key=value" (blanks around key and value
 * trimmed; the value is taken literally, no comments).  The section is the
 * longest existing section S such that the text before '=' is "S.<key>";
 * failing that, the text before the first '.'.  Replaces the value of an
 * existing key or adds the key (and section); the entry's origin becomes
 * "--set":argi.  -1 with err on malformed input. */
int cfg_set(struct cfg *c, const char *assignment, int argi, struct cfg_err *err);

int cfg_has_section(const struct cfg *c, const char *section);
/* Sections whose name starts with prefix ("" or NULL: all), in order of
 * first appearance; fn may be NULL.  Returns the count. */
size_t cfg_sections(const struct cfg *c, const char *prefix,
                    void (*fn)(const char *section, void *arg), void *arg);
/* All entries of one section in file order (overrides of existing keys keep
 * their place, new keys come last); marks them used.  fn may be NULL. */
size_t cfg_entries(struct cfg *c, const char *section,
                   void (*fn)(const struct cfg_entry *e, void *arg), void *arg);
/* Marks the entry used; NULL if absent. */
const struct cfg_entry *cfg_find(struct cfg *c, const char *section, const char *key);
/* Mark every key of a NULL-terminated list as read in `section`: a builder
 * calls it first, so an error it reports early does not leave valid keys
 * looking unknown. */
void cfg_touch(struct cfg *c, const char *section, const char *const *keys);

/* Typed getters.  Absent key: *out = dflt, return 0.  Malformed value:
 * "FILE:LINE: [sec] key: expected a time like 1.5us, got 'xyz' (unknown
 * unit)", return -1, *out = dflt (always defined).  No range checks: see
 * cfg_errorf(). */
int cfg_time(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err);
int cfg_rate(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err);
int cfg_bytes(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err);
int cfg_u64(struct cfg *c, const char *sec, const char *key, uint64_t dflt, uint64_t *out, struct cfg_err *err);
int cfg_double(struct cfg *c, const char *sec, const char *key, double dflt, double *out, struct cfg_err *err);
/* "90%" -> 0.9; the '%' is required. */
int cfg_percent(struct cfg *c, const char *sec, const char *key, double dflt, double *out, struct cfg_err *err);
int cfg_bool(struct cfg *c, const char *sec, const char *key, int dflt, int *out, struct cfg_err *err);
/* Never fails; dflt may be NULL. */
int cfg_str(struct cfg *c, const char *sec, const char *key, const char *dflt, const char **out, struct cfg_err *err);
/* One of a NULL-terminated list of names (exact match); *out = its index.
 * The error lists the allowed names. */
int cfg_enum(struct cfg *c, const char *sec, const char *key, const char *const *names, int dflt, int *out, struct cfg_err *err);

/* Caller-side errors; all return -1.
 * cfg_errorf: "FILE:LINE: [sec] key: <fmt>" for an entry; just <fmt> if
 * e == NULL.  cfg_section_errorf: "FILE:LINE: [sec]: <fmt>" at the
 * section's first header ("FILE: [sec]: <fmt>" if there is no such
 * section, "FILE: <fmt>" if section == NULL) -- for a missing required key. */
int cfg_errorf(struct cfg_err *err, const struct cfg_entry *e, const char *fmt, ...) CFG_PRINTF(3, 4);
int cfg_section_errorf(struct cfg_err *err, const struct cfg *c, const char *section, const char *fmt, ...)
    CFG_PRINTF(4, 5);
/* A required key is absent: "FILE:LINE: [sec]: missing required key 'KEY'"
 * plus WHAT (e.g. " (e.g. load = 70%)"), unless an unread key of the
 * section is one edit or two from KEY -- then that line is named as the
 * likely typo ("unknown key 'duratoin': did you mean 'duration', which
 * [sim] needs?").  Returns -1. */
int cfg_missing(struct cfg_err *err, const struct cfg *c, const char *section, const char *key, const char *what);

/* After everything was read: the first entry never marked used ->
 * "FILE:LINE: [sec] key: unknown key", or "FILE:LINE: unknown section [sec]"
 * (LINE of its header) if its section was never looked at.  -1 if any. */
int cfg_check_unused(const struct cfg *c, struct cfg_err *err);

/* A reader declares that it has read everything it will ever read from
 * section (no-op if absent).  cfg_check_unused_done() is cfg_check_unused()
 * restricted to such sections: usable after an early error, when an unread
 * key in a section still being read is merely not reached yet, but one in a
 * finished section is certainly a typo (and often the cause of the error). */
void cfg_section_done(struct cfg *c, const char *section);
int  cfg_check_unused_done(const struct cfg *c, struct cfg_err *err);

#endif
