package dev.hourglass.forward;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;
import dev.hourglass.Delivery;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Publishes on one channel in confirm mode: persistent (delivery mode 2), mandatory, message id =
 * job id. A message is confirmed by the broker's {@code basic.ack}, unless a {@code basic.return}
 * (e.g. 312 NO_ROUTE) came before it; a {@code basic.nack} refuses it. A closed channel or
 * connection fails every confirm still awaited.
 */
final class AmqpPublisher implements Publisher {
  private final AmqpTarget target;
  private final String queue;
  private final ConcurrentNavigableMap<Long, Pending> pending = new ConcurrentSkipListMap<>();
  private final Map<String, Pending> byJobId = new ConcurrentHashMap<>();
  private Connection connection;
  private Channel channel;

  private static final class Pending {
    final String jobId;
    final CompletableFuture<Void> confirmed = new CompletableFuture<>();
    volatile String returned;

    Pending(String jobId) {
      this.jobId = jobId;
    }
  }

  AmqpPublisher(AmqpTarget target, String queue) {
    this.target = target;
    this.queue = queue;
  }

  @Override
  public void connect() throws PublishException {
    if (channel != null && channel.isOpen()) {
      return;
    }
    close();
    ConnectionFactory factory = new ConnectionFactory();
    int timeout = (int) Math.min(Integer.MAX_VALUE, target.timeout().toMillis());
    try {
      factory.setUri(target.uri());
      factory.setAutomaticRecoveryEnabled(false);
      factory.setConnectionTimeout(timeout);
      factory.setHandshakeTimeout(timeout);
      connection = factory.newConnection("hourglass-forward-" + queue);
      channel = connection.createChannel();
      channel.confirmSelect();
    } catch (Exception e) { // the client throws checked URI, IO and timeout exceptions
      close();
      throw new PublishException(failure(e), true);
    }
    channel.addReturnListener(
        r -> {
          Pending p = byJobId.get(String.valueOf(r.getProperties().getMessageId()));
          if (p != null) {
            p.returned =
                ForwardFailures.returned(
                    r.getReplyCode(), r.getReplyText(), r.getExchange(), r.getRoutingKey());
          }
        });
    channel.addConfirmListener((seq, multiple) -> settle(seq, multiple, null), this::nacked);
    channel.addShutdownListener(this::lost);
  }

  @Override
  public CompletableFuture<Void> publish(Delivery<?> job) {
    Pending p = new Pending(job.id());
    Channel ch = channel;
    long seq = ch.getNextPublishSeqNo();
    pending.put(seq, p);
    byJobId.put(job.id(), p);
    AMQP.BasicProperties props =
        new AMQP.BasicProperties.Builder()
            .messageId(job.id())
            .deliveryMode(2)
            .contentType("application/json")
            .headers(
                Map.of(
                    "hourglass-job-id", job.id(),
                    "hourglass-queue", job.queue(),
                    "hourglass-attempt", job.attempt()))
            .build();
    try {
      ch.basicPublish(target.exchange(), target.routingKey(), true, props, job.payload().bytes());
    } catch (Exception e) { // IOException, or the runtime AlreadyClosedException
      fail(seq, p, new PublishException(failure(e), true));
    }
    return p.confirmed;
  }

  private void nacked(long seq, boolean multiple) {
    settle(seq, multiple, "AMQP broker refused the message (basic.nack)");
  }

  private void settle(long seq, boolean multiple, String refusal) {
    Map<Long, Pending> done =
        multiple ? pending.headMap(seq, true) : pending.subMap(seq, true, seq, true);
    for (Map.Entry<Long, Pending> e : done.entrySet()) {
      Pending p = e.getValue();
      if (!pending.remove(e.getKey(), p)) {
        continue;
      }
      byJobId.remove(p.jobId, p);
      String reason = refusal != null ? refusal : p.returned;
      if (reason == null) {
        p.confirmed.complete(null);
      } else {
        p.confirmed.completeExceptionally(new PublishException(reason, false));
      }
    }
  }

  private void lost(ShutdownSignalException cause) {
    String reason = ForwardFailures.shutdown(cause);
    pending.forEach((seq, p) -> fail(seq, p, new PublishException(reason, true)));
  }

  private void fail(long seq, Pending p, PublishException e) {
    if (pending.remove(seq, p)) {
      byJobId.remove(p.jobId, p);
      p.confirmed.completeExceptionally(e);
    }
  }

  private String failure(Exception e) {
    return ForwardFailures.amqp(e, target.address(), target.uri().getHost());
  }

  @Override
  public void close() {
    Connection c = connection;
    connection = null;
    channel = null;
    if (c != null) {
      try {
        c.abort(1000); // closes without waiting for the broker's close-ok beyond 1 s
      } catch (RuntimeException e) {
        // already closed
      }
    }
    PublishException closed = new PublishException("AMQP connection closed by the forwarder", true);
    pending.forEach((seq, p) -> fail(seq, p, closed));
  }
}
