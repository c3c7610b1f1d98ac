/**
 * JSON payloads for typed queues, with Jackson 2 ({@link dev.hourglass.jackson.JacksonCodecs}) or
 * Jackson 3 ({@link dev.hourglass.jackson.Jackson3Codecs}, both in this package). Both Jackson
 * dependencies of {@code hourglass-jackson} are optional: add the {@code jackson-databind} you use
 * ({@code com.fasterxml.jackson.core} 2.x or {@code tools.jackson.core} 3.x), and for Jackson 2
 * {@code jackson-datatype-jsr310} if payloads hold {@code java.time} values.
 *
 * <pre>{@code
 * record OrderClosed(String orderId, long cents, Instant closedAt) {}
 *
 * Hourglass hourglass = Hourglass.builder()
 *     .redisUri("redis://localhost:6379")
 *     .codecs(JacksonCodecs.create())          // or JacksonCodecs.of(applicationMapper)
 *     .build();
 * Queue<OrderClosed> closed = hourglass.queue("order-closed", OrderClosed.class);
 * closed.enqueue(new OrderClosed("42", 1999, Instant.now()), Duration.ofMinutes(30));
 * closed.worker(job -> invoice(job.payload()));  // job.payload() is an OrderClosed
 *
 * // generic payloads: a codec from a TypeReference, given to queue(name, codec)
 * JacksonCodecs json = JacksonCodecs.create();
 * Queue<List<OrderClosed>> batches =
 *     hourglass.queue("batches", json.codec(new TypeReference<List<OrderClosed>>() {}));
 * }</pre>
 *
 * <p>Payloads are stored as the JSON text, so other clients (the HTTP API, {@code
 * hourglass.queue(name)} as bytes) read and write them too. Bytes that are not JSON of the queue's
 * type never reach a handler: the job goes to dead letters at once, its last error a one-line
 * {@link dev.hourglass.jackson.JsonCodecException} message such as {@code cannot decode payload as
 * com.acme.OrderClosed: Unrecognized token 'not': was expecting ...}. Fix the payload's producer,
 * then requeue the dead letters.
 *
 * <p>The {@code create()} mappers of both lines write and read the same JSON (Jackson 3's
 * defaults): {@code java.time} values as ISO-8601 text, unknown properties ignored, trailing tokens
 * refused. JSON {@code null} is refused as a payload by both. A mapper given to {@code of(...)} is
 * used as it is configured.
 */
package dev.hourglass.jackson;
