/**
 * JSON payloads for typed queues with Jackson 3 ({@code tools.jackson.databind}, the Jackson of
 * Spring Boot 4): {@link dev.hourglass.jackson3.Jackson3Codecs}. Used as {@link
 * dev.hourglass.jackson.JacksonCodecs} is for Jackson 2; see {@link dev.hourglass.jackson} for the
 * usage and the error behaviour.
 */
package dev.hourglass.jackson3;
