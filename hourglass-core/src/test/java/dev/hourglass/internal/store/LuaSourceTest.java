package dev.hourglass.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.Hourglass;
import dev.hourglass.HourglassException;
import dev.hourglass.JobSpec;
import dev.hourglass.Queue;
import dev.hourglass.testing.RedisExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scripts are composed from their file and the includes they name, each include once; every line
 * Redis runs maps back to its file and line, so a script error names where it happened.
 */
class LuaSourceTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  @Test
  void everyComposedLineMapsBackToTheSameTextInItsFile() throws IOException {
    for (Script script : Script.values()) {
      LuaSource source = LuaSource.load(script.fileName());
      String[] lines = source.text().split("\n", -1);
      for (int i = 0; i < lines.length - 1; i++) {
        String origin = source.origin(i + 1);
        String file = origin.substring(0, origin.lastIndexOf(':'));
        int line = Integer.parseInt(origin.substring(origin.lastIndexOf(':') + 1));
        assertThat(read(file).split("\n", -1)[line - 1])
            .as("%s line %d comes from %s", script, i + 1, origin)
            .isEqualTo(lines[i]);
      }
    }
  }

  @Test
  void anIncludeIsPastedOnceAndOnlyWhereNamed() {
    String clock = LuaSource.load(Script.CLOCK.fileName()).text();
    // clock.lua includes partition and catch_up; catch_up includes pools, record, jobs, place.
    assertThat(count(clock, "local function decode(")).isEqualTo(1);
    assertThat(count(clock, "local function pool_of(")).isEqualTo(1);
    assertThat(clock).doesNotContain("@include");
    String ack = LuaSource.load(Script.ACK.fileName()).text();
    assertThat(ack).as("ack.lua includes partition only").doesNotContain("local function decode(");
    assertThat(ack).contains("load_meta_bound()");
  }

  @Test
  void aScriptErrorNamesTheLuaFileAndLineItCameFrom() throws IOException {
    try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
      Queue<byte[]> queue = hourglass.queue("broken");
      queue.enqueue(JobSpec.builder().id("j").payload("x").build());
      // A record too short for its header: decode() fails on its first line.
      Partition p = new Keys("hg").partition("broken", 0, 1, 40);
      redis.server().command("HSET", p.pool("j"), p.member("j"), "xx");

      int line = lineOf("includes/record.lua", "struct.unpack(HEADER, rec)");
      assertThatThrownBy(() -> queue.get("j"))
          .isInstanceOf(HourglassException.class)
          .hasMessageContaining("includes/record.lua:" + line + ":")
          .hasMessageNotContaining("user_script");
    }
  }

  @Test
  void locateRewritesTheLineNumbersOfBothRedisFormats() {
    LuaSource ack = LuaSource.load(Script.ACK.fileName());
    // ack.lua's first two lines include partition.lua and limits.lua: its third follows them.
    int includedLines =
        read("includes/partition.lua").split("\n").length
            + read("includes/limits.lua").split("\n").length;
    String redis62 =
        "ERR Error running script (call to f_x): @user_script:"
            + (includedLines + 1)
            + ": user_script:"
            + (includedLines + 1)
            + ": boom";
    String redis7 = "ERR user_script:1: boom script: x, on @user_script: 1.";
    assertThat(ack.locate(redis62))
        .isEqualTo("ERR Error running script (call to f_x): ack.lua:3: ack.lua:3: boom");
    assertThat(ack.locate(redis7))
        .isEqualTo("ERR includes/partition.lua:1: boom script: x, on includes/partition.lua:1.");
  }

  private static int count(String text, String part) {
    return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
  }

  private static int lineOf(String file, String text) {
    List<String> lines = List.of(read(file).split("\n", -1));
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text + " not in " + file);
  }

  private static String read(String file) {
    try (InputStream in = LuaSource.class.getResourceAsStream(LuaSource.RESOURCE_DIR + file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
