package dev.hourglass.forward;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A durable queue bound to the exchange, consumed with manual acks: arrival time is when the
 * consumer got the message (the broker had it by then).
 */
final class AmqpSink implements Sink {
  private final ConnectionFactory factory = new ConnectionFactory();
  private final String exchange;
  private final String name;
  private final List<Arrival> arrivals = new ArrayList<>();
  private Connection connection;

  AmqpSink(String uri, String exchange, String routingKey) throws Exception {
    factory.setUri(uri);
    factory.setAutomaticRecoveryEnabled(false);
    this.exchange = exchange;
    this.name = exchange + ".sink";
    try (Connection c = factory.newConnection();
        Channel ch = c.createChannel()) {
      ch.exchangeDeclare(exchange, "direct", true);
      ch.queueDeclare(name, true, false, false, null);
      ch.queueBind(name, exchange, routingKey);
    }
    reconnect();
  }

  /** An exchange with no queue bound: every mandatory publish to it is returned. */
  static void declareUnbound(String uri, String exchange) throws Exception {
    ConnectionFactory f = new ConnectionFactory();
    f.setUri(uri);
    try (Connection c = f.newConnection();
        Channel ch = c.createChannel()) {
      ch.exchangeDeclare(exchange, "direct", true);
    }
  }

  @Override
  public synchronized void reconnect() throws Exception {
    connection = factory.newConnection("sink-" + exchange);
    Channel ch = connection.createChannel();
    ch.basicConsume(
        name,
        false,
        new DefaultConsumer(ch) {
          @Override
          public void handleDelivery(
              String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body)
              throws java.io.IOException {
            long now = System.currentTimeMillis();
            var h = props.getHeaders();
            Arrival a =
                new Arrival(
                    String.valueOf(h.get("hourglass-job-id")),
                    String.valueOf(h.get("hourglass-queue")),
                    ((Number) h.get("hourglass-attempt")).intValue(),
                    now,
                    new String(body, StandardCharsets.UTF_8));
            if (!a.jobId().equals(props.getMessageId())
                || !"application/json".equals(props.getContentType())
                || props.getDeliveryMode() != 2) {
              throw new IllegalStateException("bad message properties: " + props);
            }
            synchronized (AmqpSink.this) {
              arrivals.add(a);
            }
            getChannel().basicAck(envelope.getDeliveryTag(), false);
          }
        });
  }

  @Override
  public synchronized List<Arrival> arrivals() {
    return List.copyOf(arrivals);
  }

  @Override
  public synchronized void close() throws Exception {
    if (connection != null && connection.isOpen()) {
      connection.close();
    }
  }
}
