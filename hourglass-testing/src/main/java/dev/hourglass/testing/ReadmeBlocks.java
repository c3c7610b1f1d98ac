package dev.hourglass.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The code blocks of one section of a Markdown file, for tests that run a README's examples as
 * printed.
 */
public final class ReadmeBlocks {
  private final String section;

  private ReadmeBlocks(String section) {
    this.section = section;
  }

  /**
   * The section that starts at {@code heading} and ends at the next {@code ## } heading.
   *
   * @param markdown the file, e.g. the repository's {@code README.md}
   * @param heading the section's heading line as written, e.g. {@code ## Quick start (Java)}
   * @return the section's blocks
   * @throws AssertionError when the file has no such heading
   * @throws UncheckedIOException when the file cannot be read
   */
  public static ReadmeBlocks section(Path markdown, String heading) {
    String text;
    try {
      text = Files.readString(markdown);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int start = text.indexOf(heading);
    if (start < 0) {
      throw new AssertionError(markdown + " has no section " + heading);
    }
    int end = text.indexOf("\n## ", start + 1);
    return new ReadmeBlocks(text.substring(start, end < 0 ? text.length() : end));
  }

  /**
   * The section's text, headings and prose included.
   *
   * @return the text
   */
  public String text() {
    return section;
  }

  /**
   * The first fenced block of a language, without its fences.
   *
   * @param language the word after the opening fence, e.g. {@code java}
   * @return the block's lines, each ending with a line break
   * @throws AssertionError when the section has no such block
   */
  public String block(String language) {
    Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(section);
    if (!m.find()) {
      throw new AssertionError("no ```" + language + " block in: " + section);
    }
    return m.group(1);
  }
}
