// fake_model_server: the calculator-using fake model (tests/support/fake_model.hpp) on a
// loopback port with keep-alive, for measuring many_agents by hand (docs/scale.md):
//   fake_model_server [latency_ms]   prints "url http://127.0.0.1:PORT/v1", then serves until
//   its standard input closes, and prints the requests and connections it served.
// One Asio thread (support/async_model_server.hpp): it stands in for a remote model, so it
// should cost the machine as little as one.
#include <cstdlib>
#include <iostream>
#include <string>

#include "support/async_model_server.hpp"
#include "support/fake_model.hpp"

int main(int argc, char** argv) {
  using namespace tooluse::testing;
  const long latency = argc > 1 ? std::atol(argv[1]) : 50;
  std::atomic<long> requests{0};
  async_model_server server(calculator_model(std::chrono::milliseconds(latency), &requests));
  std::cout << "url " << server.url("/v1") << std::endl;
  std::string line;
  while (std::getline(std::cin, line)) {
  }
  std::cout << "requests " << requests.load() << " connections " << server.connections()
            << std::endl;
  return 0;
}
