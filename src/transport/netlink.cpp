// netlink_route_request() on libnl: nl_socket_alloc + nl_connect for the socket (bound to a port id the
// kernel picks), nl_sendto for the request, nl_recv (with MSG_PEEK sizing, so a large reply is never cut)
// for each datagram. The wait is a poll() against one deadline, not SO_RCVTIMEO, so a chatty socket cannot
// stretch the timeout datagram by datagram.
#include "transport/netlink.h"

#include <linux/netlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <poll.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace fabricctl {
namespace {

using SockPtr = std::unique_ptr<nl_sock, decltype(&nl_socket_free)>;

struct FreeDeleter {
  void operator()(unsigned char* p) const { std::free(p); }  // NOLINT: nl_recv's buffer is malloc'ed
};

std::string nl_error(int rc) { return std::string(nl_geterror(rc)) + " (libnl " + std::to_string(rc) + ")"; }

}  // namespace

Expected<NetlinkAnswer> netlink_route_request(std::span<const uint8_t> request, const NetlinkOptions& options) {
  nlmsghdr h{};
  if (request.size() < sizeof(h) || request.size() > 0xffff)
    return unexpected("netlink: a request of " + std::to_string(request.size()) + " bytes is no netlink message");
  std::memcpy(&h, request.data(), sizeof(h));
  if (h.nlmsg_len != request.size())
    return unexpected("netlink: request nlmsg_len " + std::to_string(h.nlmsg_len) + " but " +
                      std::to_string(request.size()) + " bytes");
  // Without an ACK the end of the answer could only be guessed from a timeout.
  if ((h.nlmsg_flags & NLM_F_ACK) == 0) return unexpected("netlink: request without NLM_F_ACK");

  SockPtr sk(nl_socket_alloc(), &nl_socket_free);
  if (!sk) return unexpected("netlink: out of memory for a socket");
  if (const int rc = nl_connect(sk.get(), NETLINK_ROUTE); rc < 0)
    return unexpected("netlink: cannot open a NETLINK_ROUTE socket: " + nl_error(rc));
  nl_socket_enable_msg_peek(sk.get());

  std::vector<uint8_t> msg(request.begin(), request.end());
  const uint32_t seq = nl_socket_use_seq(sk.get());
  std::memcpy(msg.data() + offsetof(nlmsghdr, nlmsg_seq), &seq, sizeof(seq));
  if (const int rc = nl_sendto(sk.get(), msg.data(), msg.size()); rc < 0)
    return unexpected("netlink: send failed: " + nl_error(rc));

  NetlinkAnswer answer;
  size_t reply_bytes = 0;
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return unexpected("netlink: no answer from the kernel within " + std::to_string(options.timeout.count()) + " ms");
    pollfd p{nl_socket_get_fd(sk.get()), POLLIN, 0};
    const int pr = ::poll(&p, 1, static_cast<int>(left.count()));
    if (pr < 0 && errno == EINTR) continue;
    if (pr < 0)
      return unexpected("netlink: poll failed: " + std::string(std::strerror(errno)));  // NOLINT(concurrency-mt-unsafe)
    if (pr == 0) continue;  // the deadline check above reports it

    sockaddr_nl from{};
    unsigned char* raw = nullptr;
    const int n = nl_recv(sk.get(), &from, &raw, nullptr);
    const std::unique_ptr<unsigned char, FreeDeleter> buf(raw);
    if (n < 0) return unexpected("netlink: receive failed: " + nl_error(n));
    if (n == 0) return unexpected("netlink: the socket was closed before the kernel answered");
    if (from.nl_pid != 0) continue;  // not from the kernel

    int rem = n;
    auto* m = reinterpret_cast<nlmsghdr*>(buf.get());  // malloc'ed: aligned for nlmsghdr
    for (; nlmsg_ok(m, rem) != 0; m = nlmsg_next(m, &rem)) {
      if (m->nlmsg_seq != seq) continue;  // an answer to no request of ours
      if (m->nlmsg_type == NLMSG_ERROR) {
        if (m->nlmsg_len < NLMSG_HDRLEN + sizeof(int))
          return unexpected("netlink: NLMSG_ERROR of " + std::to_string(m->nlmsg_len) + " bytes has no error code");
        int err = 0;
        std::memcpy(&err, nlmsg_data(m), sizeof(err));
        answer.error = -err;
        return answer;
      }
      if (m->nlmsg_type == NLMSG_DONE) return answer;
      reply_bytes += m->nlmsg_len;
      if (reply_bytes > options.max_reply_bytes)
        return unexpected("netlink: replies exceed " + std::to_string(options.max_reply_bytes) + " bytes");
      const auto* b = reinterpret_cast<const uint8_t*>(m);
      answer.messages.emplace_back(b, b + m->nlmsg_len);
    }
    if (rem >= static_cast<int>(NLMSG_HDRLEN))
      return unexpected("netlink: a truncated message (" + std::to_string(rem) + " bytes left of a datagram of " +
                        std::to_string(n) + ")");
  }
}

}  // namespace fabricctl
