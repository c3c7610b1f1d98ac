package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;

/** A successful (2xx) answer of the server, with its body as sent. */
record ServerResponse(int status, String body) {

  boolean hasBody() {
    return !body.isBlank();
  }

  /** The body as JSON; a body that is not JSON is the server's fault, exit code 1. */
  JsonNode json() {
    try {
      return Json.parse(body);
    } catch (IllegalArgumentException e) {
      throw new CommandFailure(
          ExitCodes.SERVER_ERROR,
          "the server answered " + status + " with a body that is not JSON: " + e.getMessage(),
          e);
    }
  }
}
