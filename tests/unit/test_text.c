/* test_text.c -- core/text.h: untrusted text escaped for the terminal. */
#include "core/text.h"
#include "test.h"

static int esc_is(const char *in, const char *want)
{
    char out[256];
    size_t n = text_escape(out, sizeof out, in);
    if (strcmp(out, want) != 0 || n != strlen(want)) {
        printf("  text_escape(...) = '%s', want '%s'\n", out, want);
        return 0;
    }
    return 1;
}

TEST(ascii_and_utf8_unchanged)
{
    CHECK(esc_is("", ""));
    CHECK(esc_is("plain text: [sim] rate = 40Gbps #x ~\\", "plain text: [sim] rate = 40Gbps #x ~\\"));
    CHECK(esc_is("1.5\xc2\xb5s caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "1.5\xc2\xb5s caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
    /* the last code points of each length and U+00A0, just past C1 */
    CHECK(esc_is("\xdf\xbf\xef\xbf\xbf\xf4\x8f\xbf\xbf\xc2\xa0", "\xdf\xbf\xef\xbf\xbf\xf4\x8f\xbf\xbf\xc2\xa0"));
}

TEST(controls_escaped)
{
    CHECK(esc_is("a\x1b[2Jb", "a\\x1b[2Jb"));
    CHECK(esc_is("\x1b]0;title\x07", "\\x1b]0;title\\x07"));
    CHECK(esc_is("tab\there\r\n\x7f\x01", "tab\\x09here\\x0d\\x0a\\x7f\\x01"));
    CHECK(esc_is("\xc2\x9b" "2J \xc2\x80", "\\xc2\\x9b2J \\xc2\\x80"));   /* C1: CSI, PAD */
}

TEST(invalid_utf8_escaped)
{
    CHECK(esc_is("\xff\xfe", "\\xff\\xfe"));
    CHECK(esc_is("\x9b" "2J", "\\x9b2J"));                         /* bare 8-bit CSI */
    CHECK(esc_is("\xc0\xaf \xe0\x80\xaf", "\\xc0\\xaf \\xe0\\x80\\xaf"));  /* overlong '/' */
    CHECK(esc_is("\xed\xa0\x80", "\\xed\\xa0\\x80"));              /* surrogate U+D800 */
    CHECK(esc_is("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"));     /* above U+10FFFF */
    CHECK(esc_is("\xe2\x82", "\\xe2\\x82"));                       /* cut short at the end */
    CHECK(esc_is("\xe2\x82x", "\\xe2\\x82x"));                     /* cut short by ASCII */
}

TEST(idempotent)
{
    char once[256], twice[256];
    text_escape(once, sizeof once, "x\x1b[1m\xff\xc2\x9b\xc3\xa9y");
    text_escape(twice, sizeof twice, once);
    CHECK_STR(once, twice);
}

TEST(truncation_keeps_units_whole)
{
    char out[8];
    CHECK_EQ(text_escape(out, sizeof out, "abcdefghij"), 7);
    CHECK_STR(out, "abcdefg");
    CHECK_EQ(text_escape(out, sizeof out, "abcd\x1b"), 4);          /* "\x1b" does not fit after abcd */
    CHECK_STR(out, "abcd");
    CHECK_EQ(text_escape(out, sizeof out, "abcdef\xc3\xa9"), 6);     /* nor half of an 'é' */
    CHECK_STR(out, "abcdef");
    CHECK_EQ(text_escape(out, 1, "abc"), 0);
    CHECK_STR(out, "");
    char buf[12] = "a\x1b[2Jbcdef";
    text_escape_inplace(buf, sizeof buf);
    CHECK_STR(buf, "a\\x1b[2Jbcd");   /* 11 bytes + NUL */
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_text";
    RUN(ascii_and_utf8_unchanged);
    RUN(controls_escaped);
    RUN(invalid_utf8_escaped);
    RUN(idempotent);
    RUN(truncation_keeps_units_whole);
    return test_summary();
}
