package dev.hourglass.server.auth;

import java.util.EnumSet;
import java.util.Set;

/** What a token may do. {@code admin} may do everything. */
public enum Role {
  ADMIN(EnumSet.allOf(Permission.class)),
  PRODUCER(EnumSet.of(Permission.PRODUCE, Permission.READ, Permission.METRICS)),
  CONSUMER(EnumSet.of(Permission.CONSUME, Permission.READ, Permission.METRICS)),
  /** Looks and changes nothing: reads queues, jobs, dead letters and series, and /metrics. */
  VIEWER(EnumSet.of(Permission.READ, Permission.METRICS));

  private final Set<Permission> permissions;

  Role(Set<Permission> permissions) {
    this.permissions = permissions;
  }

  public boolean may(Permission p) {
    return permissions.contains(p);
  }
}
