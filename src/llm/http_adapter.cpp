// http_adapter: the one request-to-answer path of the four HTTP adapters, blocking and on the
// pool.
#include "tooluse/llm/http_adapter.hpp"

#include <algorithm>
#include <stdexcept>

#include "exchange.hpp"

namespace tooluse::llm::detail {
namespace {

// The http layer names its own limit; a user of a provider sets provider_options.
void provider_limit_name(std::string& msg) {
  const std::string from = "http::sse_limits::max_event_bytes";
  if (auto pos = msg.find(from); pos != std::string::npos)
    msg.replace(pos, from.size(), "llm::provider_options::max_event_bytes");
}

// model_call is one exchange's state: the tools the answer is decoded with (their name map, and
// the request's tools and strictness, all a decoder reads of it) and, for a stream, the parser
// and the decoder assembling the answer. It needs nothing else of the caller's request.
class model_call {
 public:
  model_call(const provider_options& opts, const provider_wire& wire, bool stream,
             const stream_callbacks& callbacks, std::shared_ptr<const cached_tools> tools)
      : opts_(&opts),
        wire_(&wire),
        tools_(std::move(tools)),
        req_(&tools_->request),
        parser_({.max_event_bytes = opts.max_event_bytes}) {
    if (!stream) return;
    decoder_ = wire.stream();
    decoder_->who = wire.who;
    decoder_->req = req_;
    decoder_->names = &tools_->wire.names;
    decoder_->callbacks = &callbacks;
  }
  model_call(const model_call&) = delete;
  model_call& operator=(const model_call&) = delete;

  exchange_hooks hooks() {
    if (!decoder_) return {};
    return {.on_body = [this](std::string_view chunk) {
      auto handler = [this](const http::sse_event& ev) { decoder_->on_event(ev); };
      if (auto st = parser_.feed(chunk, handler); !st && !decoder_->failure) {
        error e = st.error();
        provider_limit_name(e.message);
        e.message = wire_->who + ": " + e.message;
        decoder_->failure = std::move(e);
      }
      return !decoder_->failure;  // a broken or oversized stream is abandoned at once
    }};
  }

  result<chat_response> finish(result<http::response> res) {
    if (!res && decoder_ && decoder_->failure) return fail(*decoder_->failure);
    if (!res) return fail(res.error());
    result<chat_response> out = fail(errc::internal, "unreachable");
    if (decoder_) {
      out = decoder_->assemble();
    } else {
      auto j = parse_json(res->body);
      if (!j)
        return fail(errc::protocol_error,
                    wire_->who + ": response is not JSON: " + j.error().message);
      out = wire_->decode(*j, *req_, tools_->wire.names);
    }
    if (out) out->usage.requests = 1;
    if (out) apply_price(out->usage, opts_->price);
    return out;
  }

 private:
  const provider_options* opts_;
  const provider_wire* wire_;
  std::shared_ptr<const cached_tools> tools_;
  const chat_request* req_;
  http::sse_parser parser_;
  std::unique_ptr<stream_decoder> decoder_;
};

}  // namespace

http::request json_post(const provider_options& opts, const std::string& path, std::string body,
                        bool stream, const std::vector<http::header>& headers) {
  http::request hreq{.method = "POST",
                     .url = join_url(opts.base_url, path),
                     .headers = {{"Content-Type", "application/json"}},
                     .body = std::move(body)};
  if (stream) hreq.headers.push_back({"Accept", "text/event-stream"});
  for (const auto& h : headers) hreq.headers.push_back(h);
  for (const auto& h : opts.extra_headers) hreq.headers.push_back(h);
  return hreq;
}

std::vector<http::header> bearer_key(const provider_options& options, const chat_request&) {
  if (options.api_key.empty()) return {};
  return {{"Authorization", "Bearer " + options.api_key}};
}

namespace {

// outgoing is one encoded request: what goes on the wire and the names to decode with.
struct outgoing {
  http::request request;
  std::shared_ptr<const cached_tools> tools;
};

result<outgoing> encode(const provider_options& opts, const provider_wire& wire,
                        tools_cache& cache, const chat_request& req) {
  auto tools = cache.get(wire, req);
  if (!tools) return fail(tools.error());
  json body = wire.body(opts, req, (*tools)->wire);
  std::string path = wire.path_for ? wire.path_for(opts, req) : wire.path;
  return outgoing{json_post(opts, path, dump_body(body, (*tools)->wire), req.stream,
                            wire.headers(opts, req)),
                  std::move(*tools)};
}

// same_tools: what export_wire_tools reads of a tool.
bool same_tools(const std::vector<tool>& a, const std::vector<tool>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const tool& x, const tool& y) {
    return x.name == y.name && x.description == y.description &&
           x.input_schema == y.input_schema;
  });
}

}  // namespace

bool cached_tools::matches(const chat_request& req) const {
  return request.strict == req.strict && request.native_tool_search == req.native_tool_search &&
         request.allowed_tools == req.allowed_tools &&
         request.deferred_tools == req.deferred_tools && same_tools(request.tools, req.tools);
}

result<std::shared_ptr<const cached_tools>> tools_cache::get(const provider_wire& wire,
                                                             const chat_request& req) {
  std::shared_ptr<const cached_tools> last;
  {
    std::lock_guard lock(mutex_);
    last = last_;
  }
  if (last && last->matches(req)) return last;
  auto translated = wire.tools(req);
  if (!translated) return fail(translated.error());
  auto made = std::make_shared<cached_tools>();
  made->request.tools = req.tools;
  made->request.allowed_tools = req.allowed_tools;
  made->request.deferred_tools = req.deferred_tools;
  made->request.native_tool_search = req.native_tool_search;
  made->request.strict = req.strict;
  made->wire = std::move(*translated);
  made->wire.text = dump_json(made->wire.tools);
  std::shared_ptr<const cached_tools> kept = std::move(made);
  {
    std::lock_guard lock(mutex_);
    last_ = kept;
  }
  return kept;
}

}  // namespace tooluse::llm::detail

namespace tooluse::llm {

http_adapter::http_adapter(provider_options options, const detail::provider_wire& wire,
                           const char* class_name)
    : options_(std::move(options)), wire_(&wire), tools_(std::make_shared<detail::tools_cache>()) {
  if (options_.base_url.empty())
    throw std::invalid_argument(std::string(class_name) + ": base_url is empty");
  if (options_.model.empty())
    throw std::invalid_argument(std::string(class_name) + ": model is empty");
}

std::string http_adapter::name() const { return wire_->who; }

result<json> http_adapter::encode_request(const chat_request& req) const {
  auto tools = wire_->tools(req);
  if (!tools) return fail(tools.error());
  return wire_->body(options_, req, *tools);
}

result<chat_response> http_adapter::complete(const chat_request& req,
                                             const stream_callbacks& callbacks,
                                             std::stop_token stop) {
  auto out = detail::encode(options_, *wire_, *tools_, req);
  if (!out) return fail(out.error());
  detail::model_call call(options_, *wire_, req.stream, callbacks, std::move(out->tools));
  auto res = detail::send_with_retry(options_, wire_->who, std::move(out->request), call.hooks(),
                                     std::move(stop));
  return call.finish(std::move(res));
}

void http_adapter::complete_async(const chat_request& req, const stream_callbacks& callbacks,
                                  std::stop_token stop, chat_completion done) {
  auto out = detail::encode(options_, *wire_, *tools_, req);
  if (!out) return done(fail(out.error()));
  // The callbacks are the caller's only until this returns: keep a copy. Of the request, the
  // exchange needs only what out->tools holds.
  struct owned {
    owned(const provider_options& o, const detail::provider_wire& w, bool stream,
          const stream_callbacks& cb, std::shared_ptr<const detail::cached_tools> t)
        : callbacks(cb), call(o, w, stream, callbacks, std::move(t)) {}
    stream_callbacks callbacks;
    detail::model_call call;
  };
  auto o = std::make_shared<owned>(options_, *wire_, req.stream, callbacks, std::move(out->tools));
  detail::send_with_retry_async(options_, wire_->who, std::move(out->request), o->call.hooks(),
                                std::move(stop),
                                [o, done = std::move(done)](result<http::response> res) {
                                  done(o->call.finish(std::move(res)));
                                });
}

}  // namespace tooluse::llm
