package dev.hourglass.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hourglass.InvalidArgumentException;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.QueueSettings;
import dev.hourglass.QueueStats;
import dev.hourglass.server.auth.Auth;
import dev.hourglass.server.auth.TokenRule;
import dev.hourglass.server.json.ApiException;
import dev.hourglass.server.json.BackoffJson;
import dev.hourglass.server.json.Fields;
import dev.hourglass.server.json.JsonIn;
import dev.hourglass.server.json.JsonOut;
import dev.hourglass.server.json.LimitsJson;
import dev.hourglass.server.json.QueueNames;
import dev.hourglass.server.push.DeliveryConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/** Queue<byte[]> listing, one queue's view, and settings (defaults, partitions, delivery). */
final class QueuesApi {
  private final ApiContext api;

  QueuesApi(ApiContext api) {
    this.api = api;
  }

  void list(Context ctx) {
    Optional<TokenRule> rule = ctx.attribute(Routes.TOKEN_RULE);
    ObjectNode body = JsonOut.object();
    ArrayNode list = body.putArray("queues");
    for (String name : api.hourglass.queueNames()) {
      if (Auth.maySee(rule, name)) {
        list.add(counts(api.hourglass.queue(name).stats()));
      }
    }
    Http.json(ctx, 200, body);
  }

  void get(Context ctx, String queue) {
    Queue<byte[]> q = api.queues.existing(queue);
    Http.json(ctx, 200, view(q.stats(), q.settings()));
  }

  /**
   * Creates the queue or updates its settings. Everything is validated before anything is written;
   * partitions are fixed at creation. Answers 201 with the queue when it was created, else 200.
   */
  void put(Context ctx, String queue) {
    Fields f =
        Fields.of(JsonIn.object(api.body(ctx)))
            .only("partitions", "defaults", "delivery", "replicaAcks", "compressAbove", "limits");
    QueueNames.check(queue);
    boolean exists = api.queues.exists(queue);
    QueueSettings current =
        exists ? api.hourglass.queue(queue).settings() : api.hourglass.defaultQueueSettings();
    QueueSettings.Builder b = current.toBuilder();
    OptionalLong partitions = f.optLong("partitions", 1, 1024);
    if (partitions.isPresent() && exists && partitions.getAsLong() != current.partitions()) {
      throw new ApiException(
          409,
          "partitions_fixed",
          "queue " + queue + " has " + current.partitions() + " partitions, fixed at creation");
    }
    partitions.ifPresent(p -> b.partitions((int) p));
    f.optObject("defaults").ifPresent(d -> readDefaults(d, b));
    if (f.present("replicaAcks")) {
      // null: follow the server's client default; 0: never wait; n: wait for n replicas
      OptionalLong replicas = f.optLong("replicaAcks", 0, QueueSettings.MAX_REPLICA_ACKS);
      b.replicaAcks(replicas.isPresent() ? (int) replicas.getAsLong() : null);
    }
    if (f.present("compressAbove")) {
      // null: follow the server's --compress-above; 0: never compress; n: from n bytes on
      OptionalLong bytes = f.optLong("compressAbove", 0, QueueSettings.MAX_COMPRESS_ABOVE);
      b.compressAbove(bytes.isPresent() ? (int) bytes.getAsLong() : null);
    }
    if (f.present("limits")) {
      b.limits(f.optObject("limits").map(LimitsJson::read).orElse(null)); // null removes them
    }
    DeliveryConfig stored =
        DeliveryConfig.fromAttribute(current.attributes().get(DeliveryConfig.ATTRIBUTE));
    // A secret sent back as "***" (as GET shows it) keeps the stored one.
    Optional<DeliveryConfig> delivery =
        f.optObject("delivery").map(d -> DeliveryConfig.read(d, stored));
    delivery.ifPresent(d -> b.attribute(DeliveryConfig.ATTRIBUTE, d.toAttribute()));
    QueueSettings settings;
    try {
      settings = b.build();
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(e.field(), e.reason());
    }
    Queue<byte[]> q = api.hourglass.configureQueue(queue, settings);
    api.queues.forWrite(queue);
    delivery.ifPresent(d -> api.push.apply(queue, d));
    Http.json(ctx, exists ? 200 : 201, view(q.stats(), q.settings()));
  }

  private static void readDefaults(Fields d, QueueSettings.Builder b) {
    d.only("maxAttempts", "backoff", "visibilityMs", "ttlMs", "priority");
    d.optLong("maxAttempts", 1, JobSpec.MAX_ATTEMPTS_LIMIT).ifPresent(n -> b.maxAttempts((int) n));
    d.optObject("backoff").ifPresent(o -> b.backoff(BackoffJson.read(o)));
    d.optMillis("visibilityMs", 1, JobSpec.MAX_DURATION.toMillis()).ifPresent(b::visibility);
    d.optLong("ttlMs", 0, JobSpec.MAX_DURATION.toMillis())
        .ifPresent(ms -> b.ttl(ms == 0 ? null : Duration.ofMillis(ms)));
    d.optLong("priority", 0, JobSpec.MAX_PRIORITY).ifPresent(n -> b.priority((int) n));
  }

  static ObjectNode counts(QueueStats s) {
    ObjectNode o = JsonOut.object();
    o.put("name", s.queue());
    o.put("delayed", s.delayed()).put("ready", s.ready());
    o.put("inflight", s.inflight()).put("dead", s.dead());
    o.put("paused", s.paused());
    return o;
  }

  static ObjectNode view(QueueStats s, QueueSettings settings) {
    ObjectNode o = counts(s);
    o.put("partitions", settings.partitions());
    ObjectNode defaults = o.putObject("defaults");
    defaults.put("maxAttempts", settings.maxAttempts());
    defaults.set("backoff", BackoffJson.write(settings.backoff()));
    defaults.put("visibilityMs", settings.visibility().toMillis());
    if (settings.ttl().isPresent()) {
      defaults.put("ttlMs", settings.ttl().get().toMillis());
    } else {
      defaults.putNull("ttlMs");
    }
    defaults.put("priority", settings.priority());
    if (settings.replicaAcks().isPresent()) {
      o.put("replicaAcks", settings.replicaAcks().getAsInt());
    } else {
      o.putNull("replicaAcks");
    }
    if (settings.compressAbove().isPresent()) {
      o.put("compressAbove", settings.compressAbove().getAsInt());
    } else {
      o.putNull("compressAbove");
    }
    LimitsJson.write(o, settings.limits().orElse(null));
    o.put("heldBack", s.heldBack());
    o.set(
        "delivery",
        DeliveryConfig.fromAttribute(settings.attributes().get(DeliveryConfig.ATTRIBUTE)).toJson());
    ObjectNode counters = o.putObject("counters");
    QueueStats.Counters c = s.counters();
    counters.put("enqueued", c.enqueued()).put("delivered", c.delivered());
    counters.put("acked", c.acked()).put("retried", c.retried()).put("dead", c.dead());
    counters.put("expired", c.expired()).put("cancelled", c.cancelled());
    return o;
  }
}
