/* cpu_threads: the CPU at memory speed, for scale. The array is split over
 * the online cores; each thread keeps LANES independent accumulators (enough
 * operations in flight to reach memory bandwidth), and the partials are
 * combined in thread order, so the result is the same on every run. Host
 * code, a template over (T, Op) like the kernels.
 *   bench_compare -m cpu_threads
 */
#include <pthread.h>
#include <unistd.h>

#include "method.cuh"

namespace {

constexpr size_t MAX_THREADS = 256;
constexpr int LANES = 8;
constexpr size_t MIN_PER_THREAD = 4096; /* small inputs are not worth a thread each */

template <class T, class Op> struct slice {
    const T *begin;
    size_t n;
    acc_t<T> result;
};

template <class T, class Op> void *reduce_slice(void *arg)
{
    auto *s = static_cast<slice<T, Op> *>(arg);
    const Op op;
    acc_t<T> lanes[LANES];
    for (int l = 0; l < LANES; ++l)
        lanes[l] = identity<Op, acc_t<T>>();
    size_t i = 0;
    for (; i + LANES <= s->n; i += LANES)
        for (int l = 0; l < LANES; ++l)
            lanes[l] = op(lanes[l], widen(s->begin[i + l]));
    for (; i < s->n; ++i)
        lanes[0] = op(lanes[0], widen(s->begin[i]));
    acc_t<T> result = identity<Op, acc_t<T>>();
    for (int l = 0; l < LANES; ++l)
        result = op(result, lanes[l]);
    s->result = result;
    return nullptr;
}

template <class T, class Op> struct cpu_threads_reduce {
    static acc_t<T> reduce(const T *in, size_t n)
    {
        const long cores = sysconf(_SC_NPROCESSORS_ONLN);
        size_t threads = cores < 1 ? 1 : (size_t)cores > MAX_THREADS ? MAX_THREADS : (size_t)cores;
        if (threads > n / MIN_PER_THREAD + 1)
            threads = n / MIN_PER_THREAD + 1;
        slice<T, Op> slices[MAX_THREADS];
        pthread_t ids[MAX_THREADS];
        const size_t per_thread = n / threads;
        for (size_t t = 0; t < threads; ++t)
            slices[t] = {in + t * per_thread, t + 1 == threads ? n - t * per_thread : per_thread,
                         identity<Op, acc_t<T>>()};
        size_t started = 1; /* slice 0 runs on this thread */
        for (; started < threads; ++started)
            if (pthread_create(&ids[started], nullptr, reduce_slice<T, Op>, &slices[started]) != 0)
                break;
        for (size_t t = started; t < threads; ++t) /* could not start: do it here */
            reduce_slice<T, Op>(&slices[t]);
        reduce_slice<T, Op>(&slices[0]);
        for (size_t t = 1; t < started; ++t)
            pthread_join(ids[t], nullptr);
        acc_t<T> result = identity<Op, acc_t<T>>();
        for (size_t t = 0; t < threads; ++t)
            result = Op{}(result, slices[t].result);
        return result;
    }
};

} // namespace

DEFINE_METHOD(cpu_threads, .family = FAMILY_CPU, .source = "this suite: the CPU, for scale",
              .idea = "one accumulator set per core (pthreads), partials combined in order",
              .types = ALL_TYPES, .ops = VALUE_OPS, .host = host_any_pair<cpu_threads_reduce>,
              .order = {.kind = ORDER_SERIAL_CHAIN});
