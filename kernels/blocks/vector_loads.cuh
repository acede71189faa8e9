/* Reading an array of any element type with 16-byte loads. cudaMalloc'd
 * memory is 256-byte aligned, but a caller's pointer may be offset by any
 * whole number of elements. Split the array into
 *   head: the elements before the first 16-byte boundary (fewer than a vector),
 *   body: whole 16-byte vectors of VECTOR_WIDTH<T> elements (4 floats, 2
 *         doubles, 8 halves), read with one load each,
 *   tail: the elements after the last whole vector (fewer than a vector),
 * and let the first threads of the grid pick up head and tail. */
#ifndef VECTOR_LOADS_CUH
#define VECTOR_LOADS_CUH

#include <cstdint>
#include <cstring>

#include "element_traits.cuh"

template <class T> inline constexpr int VECTOR_WIDTH = 16 / sizeof(T);

/* The fewest elements that are whole vectors and whole runs of `width`
 * (rows of that many columns): their least common multiple. */
constexpr size_t gcd(size_t a, size_t b) { return b == 0 ? a : gcd(b, a % b); }
constexpr size_t lcm(size_t a, size_t b) { return a / gcd(a, b) * b; }

/* The additions a term goes through in reduce_vectors besides the thread's
 * chain (for summation orders, summation_order.h): a head and a tail element
 * join the accumulator (2), a vector is folded as a tree (8 halves: 3). With
 * fewer threads than a vector's elements a thread adds up to W - 1 of each;
 * those are elements of its chain, which a row method's order counts per
 * element (row_lanes.cuh). */
constexpr unsigned VECTOR_LOADS_DEPTH = 2 + 3;

/* VEC elements from `at` into e with 16-byte loads: `at` 16-byte aligned,
 * VEC a multiple of VECTOR_WIDTH<T> (VEC / VECTOR_WIDTH<T> loads). */
template <class T, int VEC>
__device__ __forceinline__ void load_vectors(const T *__restrict__ at, T (&e)[VEC])
{
    constexpr int W = VECTOR_WIDTH<T>;
#pragma unroll
    for (int m = 0; m < VEC / W; ++m) {
        const uint4 v = __ldg(reinterpret_cast<const uint4 *>(at + m * W));
        memcpy(&e[m * W], &v, sizeof v);
    }
}

/* Elements before the first 16-byte boundary at or after `in` (at most n). */
template <class T> __host__ __device__ __forceinline__ size_t misaligned_head(const T *in, size_t n)
{
    const size_t head = (16 - ((uintptr_t)in & 15)) % 16 / sizeof(T);
    return head < n ? head : n;
}

/* Elements [element, element + W) of in[0, n) as one 16-byte vector, at
 * the input's ends where the vector reaches outside it (element below 0 or
 * past n - W): element by element where they lie in [0, n), zeros elsewhere
 * (staged in shared memory, never read: steps 37 and 43). */
template <class T>
__device__ __forceinline__ uint4 load_checked_vector(const T *__restrict__ in, size_t n, long long element)
{
    constexpr int W = VECTOR_WIDTH<T>;
    T e[W] = {};
#pragma unroll
    for (int i = 0; i < W; ++i)
        if (element + i >= 0 && element + i < (long long)n)
            e[i] = in[element + i];
    uint4 v;
    memcpy(&v, e, sizeof v);
    return v;
}

/* Op over elements [FIRST, FIRST + COUNT) of a, as a balanced tree: for
 * floats (x + y) + (z + w), short chains that round less than a running sum. */
template <class Op, int FIRST, int COUNT, class R>
__device__ __forceinline__ R fold_tree(const R *a)
{
    if constexpr (COUNT == 1)
        return a[FIRST];
    else
        return Op{}(fold_tree<Op, FIRST, COUNT / 2>(a),
                    fold_tree<Op, FIRST + COUNT / 2, COUNT - COUNT / 2>(a));
}

/* argmax or argmin over the elements [from, to) of one 16-byte vector, in
 * index order, keeping the first of equal values (the tie rule without
 * comparing indices). Two forms, chosen by the index the caller carries:
 *  - an int index (a row's lanes, row_lanes.cuh): one comparison an element
 *    and two selects, the winner's place a small constant added once. The
 *    elements before `from` stand in as copies of element `from` (a copy
 *    that wins is element `from`: the place is raised to it) and those from
 *    `to` on as copies of element to - 1 (later equal values never win), so
 *    the whole vector is scanned without a branch an element;
 *  - a 64-bit index (the whole-array and block steps): elements outside
 *    [from, to) skipped with a "none yet" flag, each winner lifted.
 * The first form made warp_per_row faster at every width it runs
 * (bench/results/experiments/h100_argmax_row_int_index_366734d.log); the
 * second is what the other steps had before it. */
template <class Op, class T, class I>
__device__ __forceinline__ result_t<T, Op, I> scan_vector_arg(const T (&e)[VECTOR_WIDTH<T>], int from,
                                                              int to, I index)
{
    using R = result_t<T, Op, I>;
    constexpr int W = VECTOR_WIDTH<T>;
    if constexpr (sizeof(I) == sizeof(int)) {
        T x[W];
#pragma unroll
        for (int j = 0; j < W; ++j)
            x[j] = e[j];
        if (from > 0 || to < W) { /* a span's first or last vector only */
#pragma unroll
            for (int j = W - 2; j >= 0; --j)
                x[j] = j < from ? x[j + 1] : x[j];
#pragma unroll
            for (int j = 1; j < W; ++j)
                x[j] = j >= to ? x[j - 1] : x[j];
        }
        acc_t<T> best = widen(x[0]);
        int place = 0;
#pragma unroll
        for (int j = 1; j < W; ++j) {
            const bool wins = span_beats<Op::is_max, I>(widen(x[j]), best);
            best = wins ? widen(x[j]) : best;
            place = wins ? j : place;
        }
        return R{best, (I)(index + (place > from ? place : from))};
    } else {
        R best = identity<Op, R>();
        bool none = true;
#pragma unroll
        for (int j = 0; j < W; ++j)
            if (j >= from && j < to && (none || span_beats<Op::is_max, I>(widen(e[j]), best.value))) {
                best = lift<Op, T, I>(e[j], index + j);
                none = false;
            }
        return best;
    }
}

/* The pair a scan in index order keeps: b, the later element, only where
 * its value beats a's outright (the first of equal values stays; a NaN
 * beats a number, nothing beats a NaN). */
template <bool MAX> struct later_beats {
    template <class P> __device__ __forceinline__ P operator()(P a, P b) const
    {
        return arg_beats_without_branch<MAX>(b.value, a.value) ? b : a;
    }
};

/* argmax or argmin of a batch of LOADS whole vectors - vector k's elements
 * start at index first + k * stride - as two trees of (value, place in the
 * batch) pairs: element j of every vector first (in index order, so the
 * later one wins only outright), then the W winners by value and place
 * (combine_without_branch: their places are in no known order).
 * As many comparisons as a scan, but the chain that waits on the loads is
 * log2(LOADS) + log2(W) deep, not LOADS * W. In this order ptxas keeps
 * the batch's loads in flight together for every type (local sm_90 SASS);
 * a tree over each vector's elements first left two or three in flight in
 * some row kernels. */
template <class Op, class T, int LOADS>
__device__ __forceinline__ result_t<T, Op> fold_batch_arg(const uint4 (&v)[LOADS], size_t first,
                                                          size_t stride)
{
    constexpr int W = VECTOR_WIDTH<T>;
    arg_pair<acc_t<T>, int> column[W][LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        T e[W];
        memcpy(e, &v[k], sizeof v[k]); /* a bit cast: stays in registers */
#pragma unroll
        for (int j = 0; j < W; ++j)
            column[j][k] = {widen(e[j]), k * W + j};
    }
    arg_pair<acc_t<T>, int> c[W];
#pragma unroll
    for (int j = 0; j < W; ++j)
        c[j] = fold_tree<later_beats<Op::is_max>, 0, LOADS>(column[j]);
    const arg_pair<acc_t<T>, int> best = fold_tree<combine_without_branch<Op>, 0, W>(c);
    const int k = best.index / W, j = best.index % W;
    return {best.value, (long long)(first + k * stride + j)};
}

/* Op over the elements [from, to) of one 16-byte vector whose first element
 * has index `index` (argmax and argmin keep it, as an I: result_t; the value
 * operators drop it), the others taken as the identity: the same tree for
 * any (from, to), so a whole vector (0, W) folds to the same bits as
 * fold_vector. At least one element lies in [from, to). */
template <class Op, class T, class I = long long>
__device__ __forceinline__ result_t<T, Op, I> fold_vector_part(uint4 raw, int from, int to,
                                                               cuda::std::type_identity_t<I> index)
{
    using R = result_t<T, Op, I>;
    constexpr int W = VECTOR_WIDTH<T>;
    T e[W];
    memcpy(e, &raw, sizeof raw); /* a bit cast: stays in registers */
    if constexpr (is_arg_op_v<Op> && !is_arg_pair_v<T>) {
        return scan_vector_arg<Op, T, I>(e, from, to, index);
    } else {
        R a[W];
#pragma unroll
        for (int j = 0; j < W; ++j)
            a[j] = j >= from && j < to ? lift<Op, T, I>(e[j], index + j) : identity<Op, R>();
        return fold_tree<Op, 0, W>(a);
    }
}

/* Op over the elements of one 16-byte vector (the value operators, which
 * drop the index, may leave it out). */
template <class Op, class T>
__device__ __forceinline__ result_t<T, Op> fold_vector(uint4 raw, size_t index = 0)
{
    return fold_vector_part<Op, T>(raw, 0, VECTOR_WIDTH<T>, index);
}

/* acc and the fold of a vector that lies after all of acc's elements: a
 * thread reads its vectors in index order. Not so for a second launch over
 * a first launch's partials (T an arg_pair), whose indices interleave. */
template <class Op, class T, class R> __device__ __forceinline__ R fold_in_order(R acc, R later)
{
    if constexpr (is_arg_pair_v<T>)
        return Op{}(acc, later);
    else
        return combine_later<Op>(acc, later);
}

/* The vectors i, i + stride, ... of one batch that lie before body_len, by
 * predicated loads issued together (the others are left unset). */
template <int LOADS>
__device__ __forceinline__ void load_batch_part(uint4 (&v)[LOADS], const uint4 *__restrict__ body,
                                                size_t body_len, size_t i, size_t stride)
{
#pragma unroll
    for (int k = 0; k < LOADS; ++k)
        if (i + k * stride < body_len)
            v[k] = __ldg(&body[i + k * stride]);
}

/* acc and the vectors load_batch_part loaded, in index order (vector k has
 * index body_index + W x (i + k x stride)). */
template <int LOADS, class Op, class T, class R>
__device__ __forceinline__ R fold_batch_part(R acc, const uint4 (&v)[LOADS], size_t body_len,
                                             size_t body_index, size_t i, size_t stride)
{
    constexpr int W = VECTOR_WIDTH<T>;
#pragma unroll
    for (int k = 0; k < LOADS; ++k)
        if (i + k * stride < body_len)
            acc = fold_in_order<Op, T>(acc, fold_vector<Op, T>(v[k], body_index + (i + k * stride) * W));
    return acc;
}

/* acc and the body's vectors i, i + threads, ... (index body_index + W x
 * the vector's place): whole batches of LOADS loads, then at most one
 * partial batch with predicated loads - a thread with 3 vectors left still
 * has all 3 in flight together, and the full batches pay no bounds checks. */
template <int LOADS, class Op, class T, class R>
__device__ __forceinline__ R fold_body_vectors(R acc, const uint4 *__restrict__ body, size_t body_len,
                                               size_t body_index, size_t i, size_t threads)
{
    constexpr int W = VECTOR_WIDTH<T>;
    for (; i + (LOADS - 1) * threads < body_len; i += LOADS * threads) {
        uint4 v[LOADS];
#pragma unroll
        for (int k = 0; k < LOADS; ++k)
            v[k] = __ldg(&body[i + k * threads]);
        if constexpr (is_arg_op_v<Op> && !is_arg_pair_v<T> && LOADS > 1) {
            acc = combine_later<Op>(acc, fold_batch_arg<Op, T, LOADS>(v, body_index + i * W, threads * W));
        } else {
#pragma unroll
            for (int k = 0; k < LOADS; ++k) /* in index order */
                acc = fold_in_order<Op, T>(acc,
                                           fold_vector<Op, T>(v[k], body_index + (i + k * threads) * W));
        }
    }
    if (i < body_len) {
        uint4 v[LOADS];
        load_batch_part<LOADS>(v, body, body_len, i, threads);
        acc = fold_batch_part<LOADS, Op, T>(acc, v, body_len, body_index, i, threads);
    }
    return acc;
}

/* acc and the body's vectors first .. first + LOADS - 1, those before
 * body_len: one batch of neighbouring vectors, for threads that cover the
 * whole body in one batch each (CUB's blocked arrangement: a warp's loads
 * then read one stretch of 32 x LOADS vectors, which a single block of
 * 4096 floats reads sooner than every 256th vector a thread). */
template <int LOADS, class Op, class T, class R>
__device__ __forceinline__ R fold_neighbour_vectors(R acc, const uint4 *__restrict__ body,
                                                    size_t body_len, size_t body_index, size_t first)
{
    constexpr int W = VECTOR_WIDTH<T>;
    uint4 v[LOADS];
    load_batch_part<LOADS>(v, body, body_len, first, 1);
    if constexpr (is_arg_op_v<Op> && !is_arg_pair_v<T> && LOADS > 1)
        if (first + LOADS <= body_len)
            return combine_later<Op>(acc, fold_batch_arg<Op, T, LOADS>(v, body_index + first * W, W));
    return fold_batch_part<LOADS, Op, T>(acc, v, body_len, body_index, first, 1);
}

/* This thread's share of Op over in[0..n): thread `thread` of `threads` folds
 * every threads-th vector of the body, LOADS of them issued before the first
 * use (independent loads in flight hide DRAM latency), plus every threads-th
 * head and tail element - one of each at most when there are as many threads
 * as a vector's elements (a grid; a row's warp), several when fewer (a row's
 * group of 1-4 lanes). LOADS = 1 is the plain grid-stride loop. in[0] has
 * index `first_index` in its result (a part of a row: the part's start).
 * NEIGHBOURS: the threads cover the body in one batch, thread t folding
 * vectors t x LOADS .. t x LOADS + LOADS - 1 (fold_neighbour_vectors). */
template <int LOADS, class Op, bool NEIGHBOURS = false, class T>
__device__ __forceinline__ result_t<T, Op> reduce_vectors(const T *__restrict__ in, size_t n,
                                                          size_t thread, size_t threads,
                                                          size_t first_index = 0)
{
    using R = result_t<T, Op>;
    constexpr int W = VECTOR_WIDTH<T>;
    const Op op;
    const size_t head = misaligned_head(in, n);
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in + head);
    const size_t body_len = (n - head) / W;
    const size_t tail_start = head + body_len * W;

    /* The first head and tail elements are loaded first and added last, so
     * their loads are in flight with the body's: in a short row (the row
     * kernels, 21-27) a lane may have a head element and one vector, and an
     * add between them would cost a second trip to DRAM. */
    const bool has_head = thread < head;
    const bool has_tail = thread < n - tail_start;
    T head_element{}, tail_element{};
    if (has_head)
        head_element = in[thread];
    if (has_tail)
        tail_element = in[tail_start + thread];

    R acc = identity<Op, R>();
    if constexpr (NEIGHBOURS)
        acc = fold_neighbour_vectors<LOADS, Op, T>(acc, body, body_len, first_index + head,
                                                   thread * LOADS);
    else
        acc = fold_body_vectors<LOADS, Op, T>(acc, body, body_len,
                                              first_index + head /* the body's first element */,
                                              thread, threads);
    if (has_head)
        acc = op(acc, lift<Op>(head_element, first_index + thread));
    if (has_tail)
        acc = op(acc, lift<Op>(tail_element, first_index + tail_start + thread));
    /* The rest of head and tail, for fewer threads than W - 1: a thread per
     * row. Never runs in a grid. */
    for (size_t j = thread + threads; j < head; j += threads)
        acc = op(acc, lift<Op>(in[j], first_index + j));
    for (size_t j = thread + threads; j < n - tail_start; j += threads)
        acc = op(acc, lift<Op>(in[tail_start + j], first_index + tail_start + j));
    return acc;
}

/* This lane's share of Op over the span in[begin, end) of an array in[0, n)
 * (a row, a segment), lane `lane` of `lanes`, read as the whole array's
 * aligned 16-byte vectors that overlap the span: lane l folds the span's
 * vectors l, l + lanes, ..., LOADS of them in flight together, the first and
 * the last masked to the span (fold_vector_part). A span that starts
 * misaligned - a row of 33 floats - so costs a lane the same one load per
 * vector as an aligned one, where reduce_vectors loads its head and tail an
 * element at a time (more load instructions, a second pass over the same
 * sectors). Neighbouring spans share their boundary vectors: L1 serves the
 * second read, DRAM sees each byte once. Only elements before the array's
 * first 16-byte boundary or after its last whole vector are loaded alone: a
 * vector there would reach outside the array. I: an arg result's index type
 * (result_t), an int for a span of fewer than 2^31 elements. */
template <int LOADS, class Op, class T, class I = long long>
__device__ __forceinline__ result_t<T, Op, I> reduce_span(const T *__restrict__ in, size_t n,
                                                          size_t begin, size_t end, unsigned lane,
                                                          unsigned lanes)
{
    using R = result_t<T, Op, I>;
    constexpr int W = VECTOR_WIDTH<T>;
    const Op op;
    const size_t head = misaligned_head(in, n);
    const size_t body_end = head + (n - head) / W * W;
    const uint4 *__restrict__ body = reinterpret_cast<const uint4 *>(in + head);

    R acc = identity<Op, R>();
    const size_t span_begin = begin > head ? begin : head;
    const size_t span_end = end < body_end ? end : body_end;
    if (span_begin < span_end) {
        const size_t first = (span_begin - head) / W; /* the span's first vector */
        const size_t count = (span_end - head + W - 1) / W - first;
        const int first_from = (int)((span_begin - head) % W);
        const int last_to = (int)(span_end - head - (first + count - 1) * W);
        for (size_t k = lane; k < count; k += LOADS * (size_t)lanes) {
            uint4 v[LOADS];
#pragma unroll
            for (int l = 0; l < LOADS; ++l)
                if (k + l * lanes < count)
                    v[l] = __ldg(&body[first + k + l * lanes]);
#pragma unroll
            for (int l = 0; l < LOADS; ++l) {
                const size_t i = k + l * lanes;
                /* the vector's first element, counted from the span's start
                 * (wraps below it for the first vector: only its masked
                 * elements lie there) */
                const I index = (I)(head + (first + i) * W - begin);
                if (i < count) /* in index order */
                    acc = fold_in_order<Op, T>(
                        acc, fold_vector_part<Op, T, I>(v[l], i == 0 ? first_from : 0,
                                                        i == count - 1 ? last_to : W, index));
            }
        }
    }
    /* The array's own misaligned head and tail: the first and last spans only. */
    for (size_t j = begin + lane; j < end && j < head; j += lanes)
        acc = op(acc, lift<Op, T, I>(in[j], j - begin));
    for (size_t j = (begin > body_end ? begin : body_end) + lane; j < end; j += lanes)
        acc = op(acc, lift<Op, T, I>(in[j], j - begin));
    return acc;
}

#endif
