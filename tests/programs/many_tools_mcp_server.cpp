// many_tools_mcp_server N: an MCP server on stdio with N generated tools (verb_noun names,
// descriptions and parameters over a business vocabulary), for the tool-search tests. Each
// tool answers "NAME ok ARGS".
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "tooluse/mcp/server.hpp"
#include "tooluse/mcp/transport.hpp"

namespace {

const std::vector<std::string> verbs = {"get",    "list",   "create", "update",
                                        "delete", "search", "export", "archive"};
const std::vector<std::string> nouns = {"weather_forecast", "invoice",
                                        "customer",         "support_ticket",
                                        "sales_order",      "shipment",
                                        "employee",         "calendar_event",
                                        "email_draft",      "document",
                                        "repository",       "pull_request",
                                        "build_job",        "deployment",
                                        "database_backup",  "user_account",
                                        "payment",          "refund",
                                        "subscription",     "product",
                                        "inventory_item",   "warehouse",
                                        "supplier",         "purchase_order",
                                        "expense_report",   "timesheet",
                                        "project",          "task",
                                        "milestone",        "meeting_room",
                                        "flight_booking",   "hotel_reservation",
                                        "rental_car",       "news_article",
                                        "blog_post",        "social_post",
                                        "ad_campaign",      "lead",
                                        "contract",         "insurance_claim",
                                        "patient_record",   "lab_result",
                                        "prescription",     "course",
                                        "student",          "exam_grade",
                                        "library_book",     "parking_permit",
                                        "utility_bill",     "tax_return",
                                        "bank_transfer",    "stock_quote",
                                        "crypto_wallet",    "sensor_reading",
                                        "log_entry",        "alert_rule",
                                        "dns_record",       "ssl_certificate",
                                        "vpn_session",      "chat_channel",
                                        "video_call",       "translation_job",
                                        "image_asset",      "audio_clip"};

std::string words(std::string s) {
  for (auto& c : s)
    if (c == '_') c = ' ';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 500;
  tooluse::tool_registry tools;
  int made = 0;
  for (const auto& noun : nouns) {
    for (const auto& verb : verbs) {
      if (made >= n) break;
      std::string name = verb + "_" + noun;
      std::string desc = "Use this to " + verb + " " + words(noun) + " records in the " +
                         (made % 2 ? "operations" : "business") + " system.";
      tooluse::json schema = {
          {"type", "object"},
          {"properties",
           {{noun + "_id", {{"type", "string"}, {"description", "which " + words(noun)}}},
            {"city", {{"type", "string"}}},
            {"limit", {{"type", "integer"}}}}}};
      tools.add({.name = name, .description = desc, .input_schema = schema},
                [name](const tooluse::json& args, tooluse::call_context&) {
                  return tooluse::tool_result::text(name + " ok " + tooluse::dump_json(args));
                });
      ++made;
    }
  }
  tooluse::mcp::server server({.name = "many-tools", .version = "1.0.0"}, &tools);
  auto ok = tooluse::mcp::serve_stdio(server);
  if (!ok) std::cerr << "many_tools_mcp_server: " << ok.error().message << "\n";
  return ok ? 0 : 1;
}
