package dev.hourglass.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium driven by Debian's chromedriver, for the dashboard tests. Fails (does not skip)
 * when either is missing: the dashboard is part of the product and must be tested.
 */
final class DashboardBrowser implements AutoCloseable {
  static final String INSTALL = "apt-get install -y chromium chromium-driver";

  /**
   * A generous bound for the page to catch up (it polls every 2 s); never reached when it works.
   */
  private static final Duration WAIT = Duration.ofSeconds(60);

  final ChromeDriver driver;

  DashboardBrowser() {
    Path chromium = onPath("chromium", "chromium-browser", "google-chrome");
    Path chromedriver = onPath("chromedriver");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,900",
        "--force-device-scale-factor=1",
        "--lang=en-US");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile()).build();
    this.driver = new ChromeDriver(service, options);
  }

  /** The first of these programs on the PATH; fails the test with the install command if none. */
  private static Path onPath(String... names) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      for (String name : names) {
        Path p = Path.of(dir, name);
        if (!dir.isEmpty() && Files.isExecutable(p)) {
          return p;
        }
      }
    }
    throw new AssertionError(
        "the dashboard tests need "
            + String.join(" or ", names)
            + " on the PATH; install Chromium and its driver: "
            + INSTALL);
  }

  /** Opens the dashboard of this server at this fragment (e.g. {@code #/queue/orders}). */
  void open(TestServer server, String fragment) {
    driver.get(server.baseUrl() + "/" + fragment);
  }

  /** Sets the viewport (not the window) to this size, as a phone or a desktop sees the page. */
  void viewport(int width, int height) {
    driver.manage().window().setSize(new Dimension(width, height));
    Number innerWidth = (Number) js("return window.innerWidth");
    Number innerHeight = (Number) js("return window.innerHeight");
    driver
        .manage()
        .window()
        .setSize(
            new Dimension(2 * width - innerWidth.intValue(), 2 * height - innerHeight.intValue()));
  }

  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  <T> T until(Function<WebDriver, T> condition) {
    return new WebDriverWait(driver, WAIT).until(condition);
  }

  WebElement visible(By by) {
    return until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  void textIs(By by, String text) {
    until(ExpectedConditions.textToBe(by, text));
  }

  Optional<WebElement> find(By by) {
    List<WebElement> found = driver.findElements(by);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  /** Presses keys where the keyboard focus is, as a person would. */
  void press(CharSequence... keys) {
    new Actions(driver).sendKeys(keys).perform();
  }

  /** The element that has the keyboard focus. */
  WebElement focused() {
    return driver.switchTo().activeElement();
  }

  boolean scrollsSideways() {
    return (Boolean)
        js(
            "var d = document.documentElement;"
                + " return d.scrollWidth > d.clientWidth || document.body.scrollWidth > d.clientWidth;");
  }

  /**
   * Saves a screenshot in the build directory's {@code screenshots/}, and also as {@code
   * docs/screenshots/<name>.png} (committed, shown by the README) when the build runs with {@code
   * -Dhg.docs.screenshots=true}: a plain build leaves the source tree as it was.
   */
  void screenshot(String name) {
    byte[] png = driver.getScreenshotAs(OutputType.BYTES);
    List<Path> dirs = new ArrayList<>(List.of(buildDir().resolve("screenshots")));
    if (Boolean.getBoolean("hg.docs.screenshots")) {
      dirs.add(Path.of("..", "docs", "screenshots"));
    }
    for (Path dir : dirs) {
      try {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), png);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static Path buildDir() {
    try {
      Path classes =
          Path.of(
              DashboardBrowser.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return classes.getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
