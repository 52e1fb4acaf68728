// The leaderboard of several scored models in the shape of BFCL's data.csv (eval_runner_helper.py
// at de8307b4: generate_leaderboard_csv, calculate_weighted_accuracy, ..._unweighted_...), as CSV,
// Markdown, or one self-contained HTML page (a sortable table and a bar chart per category).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tooluse/eval/py_value.hpp"
#include "tooluse/eval/score.hpp"

namespace tooluse::eval {
namespace {

struct acc {
  double accuracy = 0;
  std::size_t total = 0;
};

acc weighted(const std::vector<acc>& parts) {
  double sum = 0;
  std::size_t total = 0;
  for (const auto& p : parts) {
    sum += p.accuracy * static_cast<double>(p.total);
    total += p.total;
  }
  return total ? acc{sum / static_cast<double>(total), total} : acc{};
}

acc unweighted(const std::vector<acc>& parts) {
  double sum = 0;
  for (const auto& p : parts) sum += p.accuracy;
  return parts.empty() ? acc{} : acc{sum / static_cast<double>(parts.size()), 0};
}

const std::vector<std::string> columns = {
    "Rank", "Overall Acc", "Model", "Model Link", "Organization", "License", "AST Summary", "Exec Summary",
    "Simple Function AST", "Python Simple Function AST", "Java Simple Function AST", "JavaScript Simple Function AST",
    "Multiple Functions AST", "Parallel Functions AST", "Parallel Multiple AST", "Simple Function Exec",
    "Python Simple Function Exec", "REST Simple Function Exec", "Multiple Functions Exec", "Parallel Functions Exec",
    "Parallel Multiple Exec", "Relevance Detection", "Cost ($ Per 1k Function Calls)", "Latency Mean (s)",
    "Latency Standard Deviation (s)", "Latency 95th Percentile (s)"};

std::string pct(double a) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f%%", a * 100);
  return b;
}

/// str(round(v, 2)), as BFCL prints latencies.
std::string num(double v) { return py_float_repr(std::round(v * 100) / 100); }

struct row {
  double overall = 0;
  std::vector<std::string> cells;
};

row make_row(const score_report& r) {
  std::map<std::string, acc> by;
  for (const auto& c : r.categories) by[c.name] = {c.accuracy(), c.total_count};
  auto get = [&](const char* name) { return by.count(name) ? by[name] : acc{}; };
  acc simple_py = get("simple"), java = get("java"), js = get("javascript"), multiple = get("multiple_function"),
      parallel = get("parallel_function"), parallel_multiple = get("parallel_multiple_function"),
      relevance = get("relevance");
  acc simple = weighted({simple_py, java, js});
  acc ast = unweighted({simple, multiple, parallel, parallel_multiple});
  acc overall = weighted({simple, multiple, parallel, parallel_multiple, relevance});
  std::string latency_mean = "N/A", latency_sd = "N/A", latency_p95 = "N/A";
  if (!r.latencies.empty()) {
    double mean = 0;
    for (double l : r.latencies) mean += l;
    mean /= static_cast<double>(r.latencies.size());
    double var = 0;
    for (double l : r.latencies) var += (l - mean) * (l - mean);
    // statistics.stdev (sample) as BFCL's get_metric uses; one sample has none.
    double sd = r.latencies.size() > 1 ? std::sqrt(var / static_cast<double>(r.latencies.size() - 1)) : 0;
    auto sorted = r.latencies;
    std::sort(sorted.begin(), sorted.end());
    // numpy.percentile(data, 95): linear between the two nearest ranks.
    double at = 0.95 * static_cast<double>(sorted.size() - 1);
    auto lo = static_cast<std::size_t>(std::floor(at));
    std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    double p95 = sorted[lo] + (sorted[hi] - sorted[lo]) * (at - static_cast<double>(lo));
    latency_mean = num(mean);
    latency_sd = num(sd);
    latency_p95 = num(p95);
  }
  row out;
  out.overall = overall.accuracy;
  out.cells = {"", pct(overall.accuracy), r.model, "", "", "", pct(ast.accuracy), "N/A", pct(simple.accuracy),
               pct(simple_py.accuracy), pct(java.accuracy), pct(js.accuracy), pct(multiple.accuracy),
               pct(parallel.accuracy), pct(parallel_multiple.accuracy), "N/A", "N/A", "N/A", "N/A", "N/A", "N/A",
               pct(relevance.accuracy), "N/A", latency_mean, latency_sd, latency_p95};
  return out;
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The page: the table (click a header to sort; #sort=COLUMN in the URL sorts on load) and, per
// category, one bar per model. No external resources: it opens from a file or a CI artifact.
const char* page_head = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tool-calling leaderboard</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;margin-bottom:24px}
th,td{border:1px solid #ccc;padding:4px 8px;text-align:right;white-space:nowrap}
th{background:#f3f3f3;cursor:pointer} td:nth-child(3){text-align:left}
.charts{display:flex;flex-wrap:wrap;gap:24px}
.chart h3{margin:4px 0;font-size:14px}
.bar{display:flex;align-items:center;gap:6px;margin:2px 0}
.bar span.label{width:220px;overflow:hidden;text-overflow:ellipsis}
.bar span.fill{background:#3b7dd8;height:12px;display:inline-block}
</style></head><body>
<h1>Tool-calling leaderboard</h1>
<p>Scored by <code>tooluse eval</code> with the rules of the Berkeley Function Calling Leaderboard (2024-08).
Executable categories are not scored (N/A); Overall Acc averages the AST categories and relevance.</p>
)";

const char* page_script = R"(<script>
(function(){
  var table=document.getElementById('board');
  var heads=table.tHead.rows[0].cells;
  function value(cell){var t=cell.textContent.replace('%','');var n=parseFloat(t);return isNaN(n)?t:n;}
  function sortBy(col){
    var rows=Array.prototype.slice.call(table.tBodies[0].rows);
    rows.sort(function(a,b){var x=value(a.cells[col]),y=value(b.cells[col]);
      if(typeof x==='number'&&typeof y==='number')return y-x;return String(x)<String(y)?-1:String(x)>String(y)?1:0;});
    rows.forEach(function(r){table.tBodies[0].appendChild(r);});
    table.setAttribute('data-sorted-by',heads[col].textContent);
  }
  for(var i=0;i<heads.length;i++)(function(i){heads[i].addEventListener('click',function(){sortBy(i);});})(i);
  var charts=document.getElementById('charts');
  var picked=[1,8,12,13,14,21];
  picked.forEach(function(col){
    var div=document.createElement('div');div.className='chart';
    var h=document.createElement('h3');h.textContent=heads[col].textContent;div.appendChild(h);
    Array.prototype.forEach.call(table.tBodies[0].rows,function(r){
      var v=value(r.cells[col]);if(typeof v!=='number')return;
      var bar=document.createElement('div');bar.className='bar';
      bar.innerHTML='<span class="label"></span><span class="fill"></span><span class="pct"></span>';
      bar.children[0].textContent=r.cells[2].textContent;
      bar.children[1].style.width=(v*2)+'px';
      bar.children[2].textContent=r.cells[col].textContent;
      div.appendChild(bar);
    });
    charts.appendChild(div);
  });
  var m=/sort=([^&]+)/.exec(location.hash);
  if(m){var name=decodeURIComponent(m[1]);for(var j=0;j<heads.length;j++)if(heads[j].textContent===name)sortBy(j);}
  document.body.setAttribute('data-ready','1');
})();
</script>
)";

}  // namespace

std::string leaderboard(const std::vector<score_report>& reports, report_format format) {
  std::vector<row> rows;
  for (const auto& r : reports) rows.push_back(make_row(r));
  std::stable_sort(rows.begin(), rows.end(), [](const row& a, const row& b) { return a.overall > b.overall; });
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].cells[0] = std::to_string(i + 1);
  std::string out;
  switch (format) {
    case report_format::csv:
      for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + csv_cell(columns[i]);
      out += "\n";
      for (const auto& r : rows) {
        for (std::size_t i = 0; i < r.cells.size(); ++i) out += (i ? "," : "") + csv_cell(r.cells[i]);
        out += "\n";
      }
      return out;
    case report_format::markdown: {
      // The columns a reader compares: rank, overall, model, the AST categories, relevance.
      const std::vector<std::size_t> keep = {0, 1, 2, 6, 9, 10, 11, 12, 13, 14, 21, 23};
      out += "|";
      for (auto k : keep) out += " " + columns[k] + " |";
      out += "\n|";
      for (std::size_t i = 0; i < keep.size(); ++i) out += (i == 2 ? " --- |" : " ---: |");
      out += "\n";
      for (const auto& r : rows) {
        out += "|";
        for (auto k : keep) out += " " + r.cells[k] + " |";
        out += "\n";
      }
      return out;
    }
    case report_format::html:
      out = page_head;
      out += "<table id=\"board\"><thead><tr>";
      for (const auto& c : columns) out += "<th>" + html_escape(c) + "</th>";
      out += "</tr></thead><tbody>\n";
      for (const auto& r : rows) {
        out += "<tr>";
        for (const auto& c : r.cells) out += "<td>" + html_escape(c) + "</td>";
        out += "</tr>\n";
      }
      out += "</tbody></table>\n<div class=\"charts\" id=\"charts\"></div>\n";
      out += page_script;
      out += "</body></html>\n";
      return out;
  }
  return out;
}

}  // namespace tooluse::eval
