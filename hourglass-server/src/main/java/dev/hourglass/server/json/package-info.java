/**
 * The HTTP API's vocabulary without its routes: strict reading of request bodies ({@link
 * dev.hourglass.server.json.JsonIn}, {@link dev.hourglass.server.json.Fields}), writing of answers
 * ({@link dev.hourglass.server.json.JsonOut}), the error shape ({@link
 * dev.hourglass.server.json.ApiException}), and the checks the HTTP layer, push delivery, auth and
 * the CLI share (backoff objects, queue names). It depends on no other package of the server.
 */
package dev.hourglass.server.json;
