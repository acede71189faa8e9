/* The methods in story order: the progression's steps, the modern kernels,
 * the vendors, the CPU loops. One line per method; its descriptor is defined
 * in its own file (kernels/NN_<name>.cu, vendor_shims/<name>.cu,
 * kernels/cpu_<name>.cu) with DEFINE_METHOD. Adding a method is that file and
 * one line here. registry.c expands this list twice. */
METHOD(atomic_naive)
METHOD(smem_serial_atomic)
METHOD(reduce0)
METHOD(reduce1)
METHOD(reduce2)
METHOD(reduce3)
METHOD(reduce4)
METHOD(reduce5)
METHOD(reduce6)
METHOD(reduce7)
METHOD(tree_atomic)
METHOD(warp_shuffle_atomic)
METHOD(multi_kernel)
METHOD(grid_stride)
METHOD(cg_reduce)
METHOD(vector_loads)
METHOD(single_pass)
METHOD(one_pass_ilp)
METHOD(tma_ring)
METHOD(cub)
METHOD(thrust)
METHOD(cublas)
METHOD(cpu_loop)
METHOD(cpu_threads)
