package dev.hourglass.server.json;

import dev.hourglass.JobSpec;

/**
 * The API's rule for queue names, shared by the HTTP routes and the CLI, so that a name the server
 * would refuse is refused by the CLI before any request.
 */
public final class QueueNames {
  private static final int MAX_NAME = 100;

  private QueueNames() {}

  /**
   * Returns {@code name} when it is a valid queue name.
   *
   * @param name a queue name from a request or the command line
   * @return the same name
   * @throws ApiException 400 {@code invalid_queue_name}
   */
  public static String check(String name) {
    if (!isValid(name)) {
      throw new ApiException(
          400,
          "invalid_queue_name",
          "a queue name is 1 to 100 of A-Z a-z 0-9 . _ -, and not . or ..");
    }
    return name;
  }

  /**
   * 1 to 100 of {@code A-Z a-z 0-9 . _ -}, and not {@code .} or {@code ..}: a job id's characters
   * but {@code :}, checked without a regex as ids are.
   */
  private static boolean isValid(String name) {
    return JobSpec.isValidId(name)
        && name.length() <= MAX_NAME
        && name.indexOf(':') < 0
        && !name.equals(".")
        && !name.equals("..");
  }
}
