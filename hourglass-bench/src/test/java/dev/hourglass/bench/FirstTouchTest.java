package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FirstTouchTest {

  @Test
  void printsATimePerPageForEachBlock() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = System.out;
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      FirstTouch.main(new String[] {"2"});
    } finally {
      System.setOut(out);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .containsPattern("(?m)^FIRST_TOUCH touched_mb=256 us_per_page=\\d+\\.\\d\\d$")
        .containsPattern("(?m)^FIRST_TOUCH touched_mb=512 us_per_page=\\d+\\.\\d\\d$")
        .contains("# kept 2 blocks");
  }
}
