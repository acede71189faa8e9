# suite_commit(SOURCE_DIR GIVEN OUT_VAR): the commit that results files name
# (bench_compare --version, the run header), worked out at configure time.
#   GIVEN (-DREDUCE_GIT_COMMIT) when not empty: a copy of the tree sent to a
#     GPU machine may carry a stale .git, or none;
#   else git describe of SOURCE_DIR, -dirty for uncommitted edits, but only
#     when SOURCE_DIR is the top of its git work tree: a copy of the suite
#     unpacked inside another repository (a tarball in a user's own checkout)
#     would otherwise name that repository's commit;
#   else unknown.
# Its own file so that tests/test_suite_commit.cmake can run it with cmake -P
# on scratch repositories, without configuring a copy of the suite.
find_package(Git QUIET)

function(suite_commit source_dir given out_var)
  set(commit unknown)
  if(NOT given STREQUAL "")
    set(commit "${given}")
  elseif(GIT_EXECUTABLE)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --show-toplevel
                    WORKING_DIRECTORY "${source_dir}"
                    OUTPUT_VARIABLE work_tree_top OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE not_in_git ERROR_QUIET)
    # Compared after resolving symlinks: git prints the physical path, the
    # source directory may have been given through a link.
    if(NOT not_in_git)
      file(REAL_PATH "${work_tree_top}" work_tree_top)
      file(REAL_PATH "${source_dir}" source_dir)
      if(work_tree_top STREQUAL source_dir)
        execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=7
                        WORKING_DIRECTORY "${source_dir}"
                        OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE
                        RESULT_VARIABLE describe_failed ERROR_QUIET)
        if(NOT describe_failed AND described)
          set(commit "${described}")
        endif()
      endif()
    endif()
  endif()
  set(${out_var} "${commit}" PARENT_SCOPE)
endfunction()
