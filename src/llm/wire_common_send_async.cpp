// send_with_retry_async: the providers' retry loop (wire_common.cpp) on the HTTP pool, so a
// model request holds no thread while the model thinks, between retries included.
#include <memory>

#include "tooluse/http/pool.hpp"
#include "wire_common.hpp"

namespace tooluse::llm::detail {
namespace {

struct retry_loop {
  const provider_options* opts = nullptr;
  std::string who;
  http::request req;
  exchange_hooks hooks;
  std::stop_token stop;
  std::function<void(result<http::response>)> done;
  int attempt = 0;
  bool ok_status = false;
  bool streamed = false;
  std::string error_body;
};

void attempt(const std::shared_ptr<retry_loop>& x);

void settle(const std::shared_ptr<retry_loop>& x, result<http::response> res) {
  auto step = after_attempt(*x->opts, x->who, x->req, x->attempt, std::move(res), x->streamed,
                            std::move(x->error_body), static_cast<bool>(x->hooks.on_body));
  if (step.done) {
    auto done = std::move(x->done);
    return done(std::move(*step.done));
  }
  ++x->attempt;
  http::post(
      [x] {
        if (x->stop.stop_requested()) {
          auto done = std::move(x->done);
          return done(fail(errc::cancelled, x->who + ": request cancelled"));
        }
        attempt(x);
      },
      step.delay, x->stop);
}

void attempt(const std::shared_ptr<retry_loop>& x) {
  x->ok_status = false;
  x->streamed = false;
  x->error_body.clear();
  http::send_options so{.stop = x->stop};
  so.on_headers = [x](int status, const std::vector<http::header>&) {
    x->ok_status = status >= 200 && status < 300;
  };
  if (x->hooks.on_body)
    so.on_body = [x](std::string_view chunk) {
      if (!x->ok_status) {
        x->error_body.append(chunk);
        return true;
      }
      x->streamed = true;
      return x->hooks.on_body(chunk);
    };
  if (x->opts->transport) return settle(x, x->opts->transport(x->req, so));
  http::send_async(x->req, std::move(so),
                   [x](result<http::response> res) { settle(x, std::move(res)); });
}

}  // namespace

void send_with_retry_async(const provider_options& opts, std::string who, http::request req,
                           exchange_hooks hooks, std::stop_token stop,
                           std::function<void(result<http::response>)> done) {
  auto x = std::make_shared<retry_loop>();
  x->opts = &opts;
  x->who = std::move(who);
  x->req = std::move(req);
  prepare_request(opts, x->req);
  x->hooks = std::move(hooks);
  x->stop = std::move(stop);
  x->done = std::move(done);
  attempt(x);
}

}  // namespace tooluse::llm::detail
