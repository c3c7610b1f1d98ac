package dev.hourglass.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on the embedded Redis's data directory, so that two servers never run two Redis
 * processes on one AOF. It is an OS file lock on {@code hourglass.lock} in the directory, released
 * by the OS when the process ends however it ends (a SIGKILL leaves no stale lock); the file holds
 * the pid of the process that holds it, for the refusal message.
 */
final class DataDirLock implements AutoCloseable {
  static final String FILE_NAME = "hourglass.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Takes the lock, or throws {@link DataDirLockedException} naming the holder's pid. */
  static DataDirLock acquire(Path dataDir) {
    Path file = dataDir.resolve(FILE_NAME);
    FileChannel channel;
    try {
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the lock file " + file.toAbsolutePath(), e);
    }
    try {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by this same JVM
      }
      if (lock == null) {
        String holder = readHolder(channel);
        channel.close();
        throw new DataDirLockedException(dataDir, holder);
      }
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
          0);
      channel.force(false);
      return new DataDirLock(channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("cannot lock " + file.toAbsolutePath(), e);
    }
  }

  private static String readHolder(FileChannel channel) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(32);
    channel.read(buf, 0);
    String text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
    return text.matches("[0-9]{1,19}") ? text : null;
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // already failing
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release the data directory lock", e);
    }
  }

  /** The data directory is held by another running server. */
  static final class DataDirLockedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    DataDirLockedException(Path dataDir, String holderPid) {
      super(
          "the data directory "
              + dataDir.toAbsolutePath()
              + " is in use by another Hourglass server ("
              + (holderPid == null ? "pid unknown" : "pid " + holderPid)
              + "); stop that server or give this one another --data-dir");
    }
  }
}
