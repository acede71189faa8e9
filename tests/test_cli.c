/* bench_compare's command line: defaults, every option, and one clear error
 * for each kind of bad input. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cli.h"

static enum cli_status parse(struct bench_options *o, char *err, const char *line)
{
    static char storage[1024];
    char *argv[32];
    int argc = 0;
    snprintf(storage, sizeof storage, "%s", line);
    argv[argc++] = "bench_compare";
    for (char *tok = strtok(storage, " "); tok && argc < 32; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    return parse_bench_options(argc, argv, o, err, CLI_ERROR_LEN);
}

static void no_arguments_should_give_64_mib_and_100_cold_samples(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "") == CLI_OK);
    CHECK(o.n == 16777216 && o.samples == 100 && !o.hot && o.method_count == 0);
    CHECK(o.dist == DIST_UNIFORM && o.strategy == PASS_PADDED && o.offset == 0);
}

static void seed_000_spelling_should_select_step_and_size(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-r 0 -s 509600000") == CLI_OK);
    CHECK(o.n == 509600000);
    CHECK(o.method_count == 1 && strcmp(o.methods[0], "reduce0") == 0);
}

static void every_option_should_be_read(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-n 1025 -m cub,vec4 -m thrust -S 7 -w 2 --hot -d signed --seed 99 "
                         "--strategy pow2-split --offset 3 --csv a.csv --json a.json "
                         "--markdown a.md --baseline b.csv --progression") == CLI_OK);
    CHECK(o.n == 1025 && o.samples == 7 && o.warmup == 2 && o.hot && o.seed == 99);
    CHECK(o.method_count == 3 && strcmp(o.methods[2], "thrust") == 0);
    CHECK(o.dist == DIST_SIGNED && o.strategy == PASS_POW2_SPLIT && o.offset == 3);
    CHECK(strcmp(o.csv_path, "a.csv") == 0 && strcmp(o.json_path, "a.json") == 0);
    CHECK(strcmp(o.markdown_path, "a.md") == 0 && strcmp(o.baseline_path, "b.csv") == 0);
    CHECK(o.progression);
    CHECK(parse(&o, err, "--sweep --sweep-max 65536 --sweep-csv s.csv") == CLI_OK);
    CHECK(o.sweep && o.sweep_max == 65536 && strcmp(o.sweep_csv_path, "s.csv") == 0);
    CHECK(parse(&o, err, "--compare old.csv new.csv") == CLI_OK);
    CHECK(strcmp(o.compare_old, "old.csv") == 0 && strcmp(o.compare_new, "new.csv") == 0);
}

static void help_should_be_recognised_anywhere(void)
{
    struct bench_options o;
    char err[CLI_ERROR_LEN];
    CHECK(parse(&o, err, "-n 5 --help") == CLI_HELP);
    CHECK(parse(&o, err, "-h") == CLI_HELP);
}

struct bad_case {
    const char *line;
    const char *message_part;
};

static void bad_input_should_fail_with_a_message_naming_the_problem(void)
{
    static const struct bad_case CASES[] = {
        {"-n 0", "at least 1"},
        {"-n -5", "'-5' is not a whole non-negative number"},
        {"-n abc", "'abc' is not a whole"},
        {"-n 12x", "'12x' is not a whole"},
        {"-n 1e6", "'1e6' is not a whole"},
        {"-n 99999999999999999999999", "too large"},
        {"-n", "-n needs a value"},
        {"-s", "-s needs a value"},
        {"-m cub,,vec4", "empty method name"},
        {"-m cub -m cub", "'cub' is named twice"},
        {"-r 3 -m reduce3", "'reduce3' is named twice"},
        {"-S 0", "samples: 0 is out of range"},
        {"-S many", "'many' is not a whole"},
        {"-w 0", "warmup: 0 is out of range"},
        {"-S 3000000000", "out of range"},
        {"--offset 4", "out of range (0..3"},
        {"--dist gaussian", "unknown distribution 'gaussian'"},
        {"--strategy fast", "unknown strategy 'fast'"},
        {"--frobnicate", "unknown option '--frobnicate'"},
        {"extra", "unknown option 'extra'"},
        {"--compare only.csv", "needs two files"},
        {"--sweep --progression", "pick one"},
        {"--sweep-max 100", "at least 1024"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; ++i) {
        struct bench_options o;
        char err[CLI_ERROR_LEN] = "";
        const enum cli_status status = parse(&o, err, CASES[i].line);
        const int found = strstr(err, CASES[i].message_part) != NULL;
        if (status != CLI_ERROR || !found)
            fprintf(stderr, "  '%s' -> status %d, message '%s'\n", CASES[i].line, status, err);
        CHECK(status == CLI_ERROR);
        CHECK(found);
        CHECK(strchr(err, '\n') == NULL); /* one line */
    }
}

/* Property: parse_count accepts exactly the non-empty all-digit strings whose
 * value fits in size_t, and then returns that value. Random strings over an
 * alphabet of digits and troublemakers, checked against a slow model. */
static void parse_count_should_agree_with_a_model_on_random_strings(void)
{
    static const char ALPHABET[] = "0123456789-+ .xeK\t";
    uint64_t state = 12345;
    for (int trial = 0; trial < 200000; ++trial) {
        char text[28];
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const size_t len = (size_t)(state >> 59) % 26; /* 0..25 characters */
        int all_digits = len > 0;
        for (size_t i = 0; i < len; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const int pick = (int)((state >> 33) % (trial % 3 ? 10 : sizeof ALPHABET - 1));
            text[i] = ALPHABET[pick];
            all_digits &= text[i] >= '0' && text[i] <= '9';
        }
        text[len] = '\0';
        /* model: accumulate with an overflow check */
        int fits = all_digits;
        size_t model = 0;
        for (size_t i = 0; fits && i < len; ++i) {
            const size_t digit = (size_t)(text[i] - '0');
            if (model > (SIZE_MAX - digit) / 10)
                fits = 0;
            else
                model = model * 10 + digit;
        }
        size_t got = 0;
        char err[CLI_ERROR_LEN];
        const bool ok = parse_count(text, "size", &got, err, sizeof err);
        CHECK(ok == (bool)fits);
        if (ok && fits)
            CHECK(got == model);
        if (ok != (bool)fits) {
            fprintf(stderr, "  parse_count('%s') = %d, model %d\n", text, ok, fits);
            return;
        }
    }
}

int main(void)
{
    RUN_TEST(no_arguments_should_give_64_mib_and_100_cold_samples);
    RUN_TEST(seed_000_spelling_should_select_step_and_size);
    RUN_TEST(every_option_should_be_read);
    RUN_TEST(help_should_be_recognised_anywhere);
    RUN_TEST(bad_input_should_fail_with_a_message_naming_the_problem);
    RUN_TEST(parse_count_should_agree_with_a_model_on_random_strings);
    return test_exit_code();
}
