/*
 * replay.c -- main() for a fuzz harness built without libFuzzer (fuzz.h):
 * feeds it every file of its seed corpus once, as a regular unit test.
 *
 *   BUILD/tests/test_fuzz_NAME            replays tests/fuzz/corpus/NAME/
 *   BUILD/tests/test_fuzz_NAME PATH...    replays these files / directories
 *
 * Prints "PASS test_fuzz_NAME.corpus (N inputs)", or FAIL when the corpus is
 * missing or empty.  A crash (sanitizer report, signal) is reported by
 * test.h's crash guard as "FAIL test_fuzz_NAME.<input path> (crashed)", so
 * the line names the input that did it.  Run from the repository root (as
 * tests/run.sh does).
 */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "test.h"

#ifndef FUZZ_NAME
#error "build with -DFUZZ_NAME=\"name\""
#endif

static char binary[64];
static char current[4096];

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 4096, n = 0, k;
    uint8_t *buf = malloc(cap);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) return -1;
    snprintf(current, sizeof current, "%s", path);
    test_cur_name_ = current;
    /* A copy of exactly n bytes, so ASan sees any read past the input. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) { free(buf); return -1; }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

/* Files of path (a file, or a directory's regular files in name order);
 * the count replayed, -1 on a read error. */
static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) return replay_file(path) == 0 ? 1 : -1;
    struct dirent **ents;
    int ne = scandir(path, &ents, NULL, alphasort), count = 0;
    if (ne < 0) return -1;
    for (int i = 0; i < ne; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", path, ents[i]->d_name);
        if (ents[i]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(p) != 0) count = -1;
            else if (count >= 0) count++;
        }
        free(ents[i]);
    }
    free(ents);
    return count;
}

int main(int argc, char **argv)
{
    test_crash_guard();
    snprintf(binary, sizeof binary, "test_fuzz_%s", FUZZ_NAME);
    test_binary_ = binary;
    test_cur_failed_ = 0;
    int total = 0, bad = 0;
    if (argc < 2) {
        int k = replay("tests/fuzz/corpus/" FUZZ_NAME);
        if (k <= 0) bad = 1;
        else total = k;
    }
    for (int i = 1; i < argc; i++) {
        int k = replay(argv[i]);
        if (k < 0) bad = 1;
        else total += k;
    }
    if (bad) {
        printf("FAIL %s.corpus (missing, empty or unreadable: run from the repository root)\n", binary);
        test_failed_++;
    } else {
        printf("PASS %s.corpus (%d inputs)\n", binary, total);
        test_passed_++;
    }
    return test_summary();
}
