// http_adapter: the one request-to-answer path of the four HTTP adapters, blocking and on the
// pool.
#include "tooluse/llm/http_adapter.hpp"

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

// model_call is one exchange's state: the tool-name map the answer is decoded with and, for a
// stream, the parser and the decoder assembling the answer.
class model_call {
 public:
  model_call(const provider_options& opts, const provider_wire& wire, const chat_request& req,
             const stream_callbacks& callbacks, wire_tools tools)
      : opts_(&opts),
        wire_(&wire),
        req_(&req),
        tools_(std::move(tools)),
        parser_({.max_event_bytes = opts.max_event_bytes}) {
    if (!req.stream) return;
    decoder_ = wire.stream();
    decoder_->who = wire.who;
    decoder_->req = &req;
    decoder_->names = &tools_.names;
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
      out = wire_->decode(*j, *req_, tools_.names);
    }
    if (out) out->usage.requests = 1;
    if (out) apply_price(out->usage, opts_->price);
    return out;
  }

 private:
  const provider_options* opts_;
  const provider_wire* wire_;
  const chat_request* req_;
  wire_tools tools_;
  http::sse_parser parser_;
  std::unique_ptr<stream_decoder> decoder_;
};

}  // namespace

http::request json_post(const provider_options& opts, const std::string& path, const json& body,
                        bool stream, const std::vector<http::header>& headers) {
  http::request hreq{.method = "POST",
                     .url = join_url(opts.base_url, path),
                     .headers = {{"Content-Type", "application/json"}},
                     .body = dump_json(body)};
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
  wire_tools tools;
};

result<outgoing> encode(const provider_options& opts, const provider_wire& wire,
                        const chat_request& req) {
  auto tools = wire.tools(req);
  if (!tools) return fail(tools.error());
  json body = wire.body(opts, req, *tools);
  std::string path = wire.path_for ? wire.path_for(opts, req) : wire.path;
  return outgoing{json_post(opts, path, body, req.stream, wire.headers(opts, req)),
                  std::move(*tools)};
}

}  // namespace

}  // namespace tooluse::llm::detail

namespace tooluse::llm {

http_adapter::http_adapter(provider_options options, const detail::provider_wire& wire,
                           const char* class_name)
    : options_(std::move(options)), wire_(&wire) {
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
  auto out = detail::encode(options_, *wire_, req);
  if (!out) return fail(out.error());
  detail::model_call call(options_, *wire_, req, callbacks, std::move(out->tools));
  auto res = detail::send_with_retry(options_, wire_->who, std::move(out->request), call.hooks(),
                                     std::move(stop));
  return call.finish(std::move(res));
}

void http_adapter::complete_async(const chat_request& req, const stream_callbacks& callbacks,
                                  std::stop_token stop, chat_completion done) {
  auto out = detail::encode(options_, *wire_, req);
  if (!out) return done(fail(out.error()));
  // The request and callbacks are the caller's only until this returns: keep copies.
  struct owned {
    owned(const provider_options& o, const detail::provider_wire& w, const chat_request& r,
          const stream_callbacks& cb, detail::wire_tools t)
        : req(r), callbacks(cb), call(o, w, req, callbacks, std::move(t)) {}
    chat_request req;
    stream_callbacks callbacks;
    detail::model_call call;
  };
  auto o = std::make_shared<owned>(options_, *wire_, req, callbacks, std::move(out->tools));
  detail::send_with_retry_async(options_, wire_->who, std::move(out->request), o->call.hooks(),
                                std::move(stop),
                                [o, done = std::move(done)](result<http::response> res) {
                                  done(o->call.finish(std::move(res)));
                                });
}

}  // namespace tooluse::llm
