#pragma once
// Durable runs in the CLI: --store/--run-id, the run's settings as the journal keeps them, the
// approval policy that reads decisions from the store, and how a waiting run is reported.
#include <memory>
#include <optional>
#include <string>

#include "agent_setup.hpp"
#include "tooluse/agent/journal.hpp"
#include "tooluse/store/store.hpp"

namespace tooluse::cli {

/// Exit status of a run that stopped to wait for an approval.
inline constexpr int exit_waiting = 3;

struct durable_flags {
  std::string store;    ///< --store; empty: TOOLUSE_STORE
  std::string run_id;   ///< --run-id
  std::string queue;    ///< --queue (PostgreSQL)
  bool resume = false;  ///< set by `runs resume`
};

/// add_durable_flags adds --store, --run-id and --queue to `cmd`.
void add_durable_flags(CLI::App& cmd, durable_flags& flags);

/// store_location is `flag`, or TOOLUSE_STORE when it is empty.
std::string store_location(const std::string& flag);

/// settings_of is what `runs resume` needs to run again: provider, base URL, model, key
/// variable (never the key), tools, MCP config, root, limits.
json settings_of(const model_flags& m, const registry_flags& r);
/// apply_settings fills flags from stored settings.
void apply_settings(const json& s, model_flags& m, registry_flags& r);

/// durable_run is a run's store, journal and (when resuming) snapshot. Inactive without a store.
class durable_run {
 public:
  /// open creates the run (or opens it to resume) and prints "run: ID" on stderr.
  status open(const durable_flags& flags, const model_flags& m, const registry_flags& r);
  bool active() const { return journal_ != nullptr; }
  const std::string& id() const { return id_; }
  std::shared_ptr<run_journal> journal() const { return journal_; }
  const std::optional<run_snapshot>& snapshot() const { return snapshot_; }
  store::run_store& store() { return *store_; }
  /// approval approves with --yes, follows a decision recorded in the store, asks on a
  /// terminal, and otherwise defers (the run then waits).
  exec::approval_policy approval(bool yes, tool_spinner* spinner);
  /// report_waiting tells how to approve and resume; returns exit_waiting.
  int report_waiting(const run_result& r) const;

 private:
  std::unique_ptr<store::run_store> store_;
  std::shared_ptr<run_journal> journal_;
  std::optional<run_snapshot> snapshot_;
  std::string id_, location_;
};

}  // namespace tooluse::cli
