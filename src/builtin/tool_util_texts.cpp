// The texts of the file and network tools in one table: what a model reads of each (name, title,
// description), with its MCP hints and the tag it is filed under. The handlers, timeouts and rate
// limits are registered beside the handlers (files_read.cpp, files_write.cpp,
// files_project_structure.cpp, web_search.cpp, web_wikipedia.cpp, web_http_fetch.cpp,
// web_weather.cpp).
#include <stdexcept>
#include <string_view>

#include "builtin/tool_util.hpp"

namespace tooluse::builtin::detail {
namespace {

constexpr tool_text k_builtin_tools[] = {
    // The file tools (files.hpp) and project_structure.
    {"file_read", "Read a file", hints::reads, "read",
     "Read a text file inside the project folder, optionally only a range of lines. "
     "Returns the text; the structured result adds the line range, the file's total lines "
     "and whether the text was cut.\n"
     "Use it to look at source code, configuration or notes before answering or editing. "
     "Do not use it for folders (use file_list or project_structure) or to find where "
     "something is (use file_search first).\n"
     "Paths are relative to the project root, e.g. \"src/main.cpp\"; \"..\" and absolute "
     "paths are refused. Binary files are refused. Long files are cut at about 256 KiB: "
     "read the rest with start_line.\n"
     "Example: {\"path\": \"src/main.cpp\", \"start_line\": 40, \"end_line\": 80}"},
    {"file_list", "List a folder", hints::reads, "read",
     "List the files and folders in a folder of the project, with sizes. Returns one line "
     "per entry: its path and size.\n"
     "Use it to see what is in one folder; for an overview of the whole project use "
     "project_structure, to find files by name or content use file_search. Hidden entries "
     "(names starting with \".\") are left out unless include_hidden is true.\n"
     "Example: {\"path\": \"src\", \"recursive\": true, \"max_entries\": 100}"},
    {"file_search", "Search files by name and content", hints::reads, "search",
     "Find files in the project by file name (a glob such as \"*.py\" or \"test_*\") and/or "
     "by content (text or a regular expression), returning paths and matching lines "
     "with line numbers.\n"
     "Use it to locate a definition, a setting or an error message before reading the "
     "file. Content search is case-insensitive unless case_sensitive is true, skips "
     "binary files, .git and node_modules. Regexes use RE2 syntax (no backreferences).\n"
     "Example: {\"content\": \"def parse_args\", \"name\": \"*.py\"}"},
    {"file_write", "Write a file", hints::writes, "write",
     "Create a text file inside the project folder, or replace one when overwrite is true. "
     "Missing parent folders are created. Returns whether the file was created or replaced "
     "and the bytes written.\n"
     "Use it for new files; to change part of an existing file use file_edit, which is "
     "safer. Needs the user's approval. Paths are relative to the project root; \"..\" and "
     "absolute paths are refused. Content is limited to about 1 MiB.\n"
     "Example: {\"path\": \"notes/todo.md\", \"content\": \"# TODO\\n- write tests\\n\"}"},
    {"file_edit", "Edit a file (exact replace)", hints::changes, "write",
     "Change part of a text file by replacing an exact piece of text with new text. Returns "
     "the number of replacements and the lines where they were made.\n"
     "old_text must appear in the file exactly once (copy it from file_read, with its "
     "spaces and line breaks), or set replace_all to change every occurrence. Use it for "
     "small, precise changes; use file_write to rewrite a whole file. Needs the user's "
     "approval.\n"
     "Example: {\"path\": \"src/config.py\", \"old_text\": \"DEBUG = True\", "
     "\"new_text\": \"DEBUG = False\"}"},
    {"file_delete", "Delete a file or folder", hints::writes, "write",
     "Delete a file, a symlink (the link only, never its target) or a folder inside the "
     "project. A folder with contents needs recursive: true. Cannot be undone: needs the "
     "user's approval; do not use it to \"clean up\" unless the user asked. Returns the "
     "path deleted and how many entries were removed.\n"
     "Example: {\"path\": \"build/tmp.log\"}"},
    {"project_structure", "Project structure", hints::reads, "project",
     "Show the project's folder tree with file sizes and summary counts (folders, files, "
     "bytes, most common extensions). Returns the tree as indented text followed by the "
     "counts.\n"
     "Use it first when you need an overview of a code base: its layout, where sources, "
     "tests and docs live. Folders such as .git, node_modules, build and .venv are "
     "excluded by default and .gitignore rules are honoured; the tree stops at max_depth "
     "and max_entries (counts still cover everything). For one folder's contents use "
     "file_list; to find files use file_search.\n"
     "Example: {\"path\": \".\", \"max_depth\": 2}"},
    // The network tools (web.hpp).
    {"web_search", "Web search", hints::searches_web, "search",
     "Search the web and get a ranked list of results (title, URL, snippet, score).\n"
     "Use it for current events, facts that change, or anything not in your training data; "
     "then read a promising page with http_fetch. For encyclopedic facts prefer "
     "wikipedia_search. Write specific queries with names, places and dates; do not put "
     "questions to the user here.\n"
     "Example: {\"query\": \"Eliud Kipchoge marathon world record time\", \"max_results\": "
     "3}"},
    {"wikipedia_search", "Search Wikipedia", hints::reads_web, "wikipedia",
     "Search Wikipedia; returns matching page titles with short snippets. Use it to find "
     "the exact title of a page, then read the page with wikipedia_page. Good for "
     "encyclopedic facts (people, places, science, history); for news use web_search.\n"
     "Example: {\"query\": \"Moon perigee distance\", \"language\": \"en\"}"},
    {"wikipedia_page", "Read a Wikipedia page", hints::reads_web, "wikipedia",
     "Get the plain text of a Wikipedia page by its exact title (as returned by "
     "wikipedia_search; redirects are followed, but there is no guessing of similar "
     "titles). Long pages are cut at max_chars: ask for one section (the result lists "
     "them) or continue with start_char.\n"
     "Example: {\"title\": \"Moon\", \"section\": \"Orbit\", \"max_chars\": 4000}"},
    {"http_fetch", "Fetch a web page", hints::reads_web, "fetch",
     "Download a public web page or text file and return it as readable text (HTML is "
     "converted: the main content first, scripts and navigation dropped).\n"
     "Use it to read a page found with web_search or a URL the user gave. Only public "
     "http(s) addresses are allowed: local, private and cloud-metadata addresses are "
     "refused. Long pages are cut at max_chars; continue with start_char. Not for "
     "binary files (PDF, images).\n"
     "Example: {\"url\": \"https://example.org/article\", \"max_chars\": 8000}"},
    {"weather", "Weather", hints::reads_web, "weather",
     "Current weather and a daily forecast (up to 16 days) for a place, from Open-Meteo. "
     "Give a city name (geocoded to the best-known place of that name: check the location "
     "in the result, and give latitude and longitude for anything ambiguous). Units are "
     "metric (°C, km/h, mm) or imperial (°F, mph, inch). Do not use it for climate "
     "statistics or past weather.\n"
     "Example: {\"location\": \"Berlin\", \"days\": 3, \"units\": \"metric\"}"},
};

}  // namespace

const tool_text& text_of(std::string_view name) {
  for (const tool_text& row : k_builtin_tools)
    if (row.name == name) return row;
  throw std::logic_error("no built-in tool named " + std::string(name));
}

}  // namespace tooluse::builtin::detail
