/* delay: holds every packet of an NFQUEUE queue for a fixed time, then lets it through.
 *
 *   delay QUEUE MICROSECONDS
 *
 * `make bench-wan` uses it in place of `tc qdisc add dev lo root netem delay ...` (this kernel
 * is built without netem): inside the bench's network namespace, iptables sends every packet
 * that arrives on lo to queue QUEUE, and this program accepts each one MICROSECONDS after it
 * came. Every packet crosses lo once, so a round trip costs twice the delay. The delay is the
 * same for every packet, so packets leave in the order they came and one batch verdict
 * releases all that are due. Only the packet's metadata comes up from the kernel, and GSO
 * packets come whole (as netem would see them on lo), so the copy costs little.
 *
 * Nothing is dropped here; a packet that finds the ring full (2^18 held) passes at once, ahead
 * of the held ones, and is counted ("overflow"). SIGUSR1 prints the counters to stderr, SIGTERM or SIGINT
 * lets every held packet through, prints them and exits. A verdict given more than 1 ms after
 * it was due ("late") means this program did not get the CPU in time: the emulated network
 * was slower than asked for.
 *
 * Build: cc -O2 -o delay delay.c -lnetfilter_queue -lnfnetlink   (libnetfilter-queue-dev)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netfilter.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <libnetfilter_queue/libnetfilter_queue.h>

#define SLOTS (1u << 18)

static struct { uint32_t id; uint64_t due; } held[SLOTS];
static uint32_t first, next; /* held[first % SLOTS] is the oldest; next - first are held */
static uint64_t delay_ns, packets, overflow, late, late_max_ns, most_held;
static volatile sig_atomic_t stopping, reporting;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void report(const char *when) {
  fprintf(stderr, "delay %s: packets=%llu held_max=%llu overflow=%llu late_1ms=%llu late_max_us=%llu\n",
          when, (unsigned long long)packets, (unsigned long long)most_held,
          (unsigned long long)overflow, (unsigned long long)late,
          (unsigned long long)(late_max_ns / 1000));
}

static int arrived(struct nfq_q_handle *queue, struct nfgenmsg *msg, struct nfq_data *data, void *ctx) {
  (void)msg;
  (void)ctx;
  struct nfqnl_msg_packet_hdr *header = nfq_get_msg_packet_hdr(data);
  if (header == NULL) return 0;
  uint32_t id = ntohl(header->packet_id);
  packets++;
  if (next - first == SLOTS) {
    overflow++;
    return nfq_set_verdict(queue, id, NF_ACCEPT, 0, NULL) < 0 ? -1 : 0;
  }
  held[next % SLOTS].id = id;
  held[next % SLOTS].due = now_ns() + delay_ns;
  next++;
  if (next - first > most_held) most_held = next - first;
  return 0;
}

static void on_signal(int sig) {
  if (sig == SIGUSR1) reporting = 1;
  else stopping = 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s QUEUE MICROSECONDS\n", argv[0]);
    return 64;
  }
  int queue_number = atoi(argv[1]);
  delay_ns = strtoull(argv[2], NULL, 10) * 1000u;
  prctl(PR_SET_TIMERSLACK, 1UL); /* wake up on time, not up to 50 us later */
  struct sigaction action = {0};
  action.sa_handler = on_signal;
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGUSR1, &action, NULL);

  struct nfq_handle *handle = nfq_open();
  if (handle == NULL) { perror("delay: nfq_open"); return 1; }
  if (nfq_bind_pf(handle, AF_INET) < 0) { perror("delay: nfq_bind_pf"); return 1; }
  struct nfq_q_handle *queue = nfq_create_queue(handle, queue_number, arrived, NULL);
  if (queue == NULL) { perror("delay: nfq_create_queue"); return 1; }
  if (nfq_set_mode(queue, NFQNL_COPY_META, 0) < 0) { perror("delay: nfq_set_mode"); return 1; }
  nfq_set_queue_maxlen(queue, SLOTS);
  if (nfq_set_queue_flags(queue, NFQA_CFG_F_GSO, NFQA_CFG_F_GSO) < 0)
    perror("delay: GSO packets will be split by the kernel");
  nfnl_rcvbufsiz(nfq_nfnlh(handle), 16u << 20);
  int fd = nfq_fd(handle);
  int one = 1;
  setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &one, sizeof one);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  fprintf(stderr, "delay: queue %d, %.3f ms per packet\n", queue_number, delay_ns / 1e6);

  static char buffer[1 << 16] __attribute__((aligned));
  while (!stopping) {
    if (reporting) {
      reporting = 0;
      report("now");
    }
    uint64_t now = now_ns();
    if (next != first && held[first % SLOTS].due <= now) {
      uint32_t last = first;
      while (last + 1 != next && held[(last + 1) % SLOTS].due <= now) last++;
      uint64_t behind = now - held[first % SLOTS].due;
      if (behind > 1000000) late++;
      if (behind > late_max_ns) late_max_ns = behind;
      /* accepts every held packet whose id is up to this one's: all that are due */
      if (nfq_set_verdict_batch(queue, held[last % SLOTS].id, NF_ACCEPT) < 0) {
        perror("delay: verdict");
        return 1;
      }
      first = last + 1;
      continue;
    }
    uint64_t wait = next != first ? held[first % SLOTS].due - now : 100000000u;
    struct timespec timeout = {(time_t)(wait / 1000000000u), (long)(wait % 1000000000u)};
    struct pollfd readable = {fd, POLLIN, 0};
    if (ppoll(&readable, 1, &timeout, NULL) <= 0) continue;
    for (;;) {
      ssize_t size = recv(fd, buffer, sizeof buffer, 0);
      if (size < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) perror("delay: recv");
        break;
      }
      nfq_handle_packet(handle, buffer, (int)size);
    }
  }
  if (next != first) nfq_set_verdict_batch(queue, held[(next - 1) % SLOTS].id, NF_ACCEPT);
  report("at exit");
  nfq_destroy_queue(queue);
  nfq_close(handle);
  return 0;
}
