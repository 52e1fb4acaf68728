# Fails unless design/design.md contains the module graph the build wrote (module_graph.md).
file(READ ${GRAPH} graph)
file(READ ${DOC} doc)
string(FIND "${doc}" "${graph}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "design/design.md does not show the module graph the build declares; "
                      "paste the output of scripts/module_graph.sh into its §2:\n${graph}")
endif()
