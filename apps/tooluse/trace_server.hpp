#pragma once
// The web trace viewer behind `tooluse trace serve`: a small HTTP server (Boost.Beast, one
// thread per connection) that serves one self-contained page (HTML, CSS and JS embedded in the
// binary; nothing fetched from elsewhere) and the runs' events as JSON for the page to poll.
//
// Runs come from run_sources: the --trace JSON Lines files named on the command line, and the
// durable run store (--store), whose journal steps are shown as the events a trace file holds.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tooluse/json.hpp"
#include "tooluse/result.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::cli {

/// run_info names one run a source can show.
struct run_info {
  std::string id;     ///< used in URLs (/runs/ID, percent-encoded)
  std::string title;  ///< e.g. the trace file's name
};

/// run_source lists runs and reads their events (the objects of a --trace file, in order).
class run_source {
 public:
  virtual ~run_source() = default;
  virtual std::vector<run_info> runs() = 0;
  /// events returns the events of run `id` from index `from` on (what exists so far: a run
  /// still being written grows between calls). Errors: errc::not_found for an unknown id.
  virtual result<std::vector<json>> events(const std::string& id, std::size_t from) = 0;
};

/// trace_files_source serves --trace JSON Lines files; a line not yet ended by '\n' is left
/// for the next read (the writer is mid-line).
std::shared_ptr<run_source> trace_files_source(std::vector<std::string> paths);

/// store_runs_source serves runs of the durable run store: those named in `ids`, or (empty)
/// the newest 100. A run still being journaled grows between calls.
std::shared_ptr<run_source> store_runs_source(std::unique_ptr<store::run_store> store,
                                              std::vector<std::string> ids);

/// stored_run_events turns a stored run's journal into trace events: started -> run (header:
/// question, provider, model, tools), model_request, model_response (finish, usage, ms,
/// message), tool_started -> tool_call, tool_finished -> tool_result (result text, is_error,
/// ms), approval_waiting, answered -> answer, failed -> error; each with turn and ts (ms).
/// `location` is the store's, for the commands shown on a call waiting for approval.
/// An approval_waiting event whose call was decided carries "decision" ("approved" or
/// "denied") and "decision_message", from `decisions` (call id -> decision and message).
json stored_run_events(
    const store::run_info& info, const std::vector<store::step>& steps,
    const std::string& location = "",
    const std::map<std::string, std::pair<store::decision, std::string>>& decisions = {});

/// run_summary is a run's line in the run list (/api/runs): id, title, question, provider,
/// model, status (running, waiting, done, failed), started (ts of its first event, ms since
/// the epoch, or null), ms (first to last event), requests, input_tokens, output_tokens, cost
/// (USD, 0 when the model has no price), tool_calls and errors (calls whose result is an error).
json run_summary(const run_info& run, const std::vector<json>& events);

/// runs_page returns the viewer's run list page: a table of `summaries` (run_summary) with a
/// filter; the filter's initial text is the page's ?q= parameter.
std::string runs_page(const json& summaries);

/// combined_source lists the runs of all `sources` in order and reads a run from the first
/// source that knows its id.
std::shared_ptr<run_source> combined_source(std::vector<std::shared_ptr<run_source>> sources);

/// trace_page returns the viewer's HTML for run `id`, with `initial` events inlined so the
/// page renders at once; it then polls /api/runs/ID/events?from=N every second for more.
std::string trace_page(const std::string& id, const json& initial);

/// serve_traces listens on host:port (port 0: a free one), prints "tooluse: trace viewer
/// http://HOST:PORT/" on stderr and serves until the process is stopped.
/// Errors: errc::io_error when the address cannot be bound.
status serve_traces(std::shared_ptr<run_source> source, const std::string& host,
                    unsigned short port);

}  // namespace tooluse::cli
