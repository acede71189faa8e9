/* The suite's operators as CCCL's function objects, for the CUB and Thrust
 * shims: cccl_operator<Op, A>::type is cuda::std::plus<A>, cuda::maximum<A>
 * or cuda::minimum<A> (libcu++'s; thrust::plus / maximum / minimum are
 * aliases of them in CCCL 3.0 and deprecated in 3.5). They start from the
 * suite's identity (identity<Op, A>(), element_traits.cuh), passed as the
 * initial value, so an empty input gives -inf / +inf like every other row. */
#ifndef CCCL_OPERATOR_CUH
#define CCCL_OPERATOR_CUH

#include <cuda/functional>
#include <cuda/std/functional>

#include "element_traits.cuh"

template <class Op, class A> struct cccl_operator;
template <class A> struct cccl_operator<op_sum, A> { using type = cuda::std::plus<A>; };
template <class A> struct cccl_operator<op_max, A> { using type = cuda::maximum<A>; };
template <class A> struct cccl_operator<op_min, A> { using type = cuda::minimum<A>; };

#endif
