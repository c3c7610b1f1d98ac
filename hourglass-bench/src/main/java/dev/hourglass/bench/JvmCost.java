package dev.hourglass.bench;

import java.lang.management.ManagementFactory;

/**
 * What this JVM spent from a starting point: CPU time of the process (every thread, JIT and GC
 * included), the time its JIT compilers spent (a part of that CPU time while compilation runs on
 * its own threads, as it does here) and the heap memory all its threads allocated, those that ended
 * meanwhile included.
 */
record JvmCost(long cpuNanos, long jitMillis, long allocatedBytes) {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final java.lang.management.CompilationMXBean JIT =
      ManagementFactory.getCompilationMXBean();

  /** The totals so far. */
  static JvmCost now() {
    return new JvmCost(
        OS.getProcessCpuTime(),
        JIT.getTotalCompilationTime(),
        THREADS.getTotalThreadAllocatedBytes());
  }

  /** What was spent since {@code this}. */
  JvmCost since() {
    JvmCost now = now();
    return new JvmCost(
        now.cpuNanos - cpuNanos, now.jitMillis - jitMillis, now.allocatedBytes - allocatedBytes);
  }

  double cpuMicros() {
    return cpuNanos / 1e3;
  }

  double jitMicros() {
    return jitMillis * 1e3;
  }

  double allocatedKb() {
    return allocatedBytes / 1024.0;
  }
}
