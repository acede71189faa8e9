#include "matrix.h"

#include <stdio.h>
#include <stdlib.h>

#include "report.h"

int run_matrix(const struct bench_options *o, const struct selection *s,
               struct bench_session *session)
{
    struct run runs[TYPE_COUNT * OP_COUNT];
    size_t count = 0;
    int status = 0;
    for (int t = 0; t < TYPE_COUNT && status != EXIT_BAD_INPUT; ++t)
        for (int op = 0; op < OP_COUNT && status != EXIT_BAD_INPUT; ++op) {
            const struct reduce_spec spec = {(enum element_type)t, (enum reduce_op)op};
            if ((o->type != TYPE_COUNT && o->type != spec.type) ||
                (o->op != OP_COUNT && o->op != spec.op))
                continue;
            fprintf(stderr, "pair %zu: %s %s\n", count + 1, element_type_name(spec.type),
                    reduce_op_name(spec.op));
            struct run *run = &runs[count++];
            *run = (struct run){0};
            const int pair_status = measure_selection(o, s, session, spec,
                                                      default_n(o, spec.type), run);
            status = pair_status > status ? pair_status : status;
        }
    if (status != EXIT_BAD_INPUT) {
        print_run_header(stdout, &session->context);
        printf("\n");
        print_matrix_table(stdout, runs, count);
    }
    for (size_t i = 0; i < count; ++i)
        free(runs[i].rows);
    return status;
}
