package dev.hourglass.server.auth;

import java.util.EnumSet;
import java.util.Set;

/** What a token may do. {@code admin} may do everything. */
public enum Role {
  /** Every permission: what the others may do, and queue settings, requeues and purges. */
  ADMIN(EnumSet.allOf(Permission.class)),
  /** Enqueues, cancels and reschedules jobs, and reads. */
  PRODUCER(EnumSet.of(Permission.PRODUCE, Permission.READ, Permission.METRICS)),
  /** Claims, acks, nacks and extends jobs, and reads. */
  CONSUMER(EnumSet.of(Permission.CONSUME, Permission.READ, Permission.METRICS)),
  /** Looks and changes nothing: reads queues, jobs, dead letters and series, and /metrics. */
  VIEWER(EnumSet.of(Permission.READ, Permission.METRICS));

  private final Set<Permission> permissions;

  Role(Set<Permission> permissions) {
    this.permissions = permissions;
  }

  /**
   * Whether this role grants a permission.
   *
   * @param p what a request does
   * @return true when the role grants it
   */
  public boolean may(Permission p) {
    return permissions.contains(p);
  }
}
