package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live browsers of the broker. Each owner (a connection) gets its own Chromium process on a
 * fresh private profile the first time it opens a browser; its pages share that profile, nobody
 * else's do, and it is deleted when the owner's last page closes, the owner leaves or the broker
 * stops. A page's {@code browserGeneration} is new for every page, and so changes whenever the
 * process or profile behind a panel is replaced. Caps: {@code maxBrowsers} live pages per broker,
 * {@code maxBrowsersPerSession} per owner (RESOURCE_EXHAUSTED beyond); a page unused for
 * {@code idleTimeout} is closed. Thread-safe.
 */
public final class Browsers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Browsers.class);

    private final BrowserOptions options;
    private final Clock clock;
    private final RandomGenerator random;
    private final Map<String, Chromium> processes = new LinkedHashMap<>();
    private final Map<String, BrowserPage> pages = new LinkedHashMap<>();
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "lomi-browser-reaper");
        thread.setDaemon(true);
        return thread;
    });

    public Browsers(BrowserOptions options, Clock clock, RandomGenerator random) {
        this.options = options;
        this.clock = clock;
        this.random = random;
        long period = Math.max(1000, Math.min(30_000, options.idleTimeout().toMillis() / 4));
        reaper.scheduleWithFixedDelay(this::closeIdle, period, period, TimeUnit.MILLISECONDS);
    }

    public BrowserOptions options() {
        return options;
    }

    /**
     * A new page for {@code owner} on about:blank whose documents and redirects may only go to origins
     * {@code originAllowed} accepts. Starts the owner's Chromium when it has none (HOST_UNQUALIFIED
     * when there is no executable or it does not start).
     */
    public BrowserPage open(String owner, Predicate<String> originAllowed) {
        Chromium chromium;
        synchronized (this) {
            pages.values().removeIf(page -> !page.isAlive());
            if (pages.size() >= options.maxBrowsers()) {
                throw new LomiException(
                        ErrorCode.RESOURCE_EXHAUSTED,
                        "the broker runs its maximum of " + options.maxBrowsers() + " browsers; close one first");
            }
            if (pages.values().stream().filter(p -> p.owner().equals(owner)).count()
                    >= options.maxBrowsersPerSession()) {
                throw new LomiException(
                        ErrorCode.RESOURCE_EXHAUSTED,
                        "a connection may hold at most " + options.maxBrowsersPerSession()
                                + " browsers; close one first");
            }
            chromium = processes.get(owner);
            if (chromium == null || !chromium.isAlive()) {
                if (chromium != null) {
                    chromium.close();
                }
                chromium = Chromium.launch(
                        options.executable()
                                .orElseThrow(() -> new LomiException(
                                        ErrorCode.HOST_UNQUALIFIED,
                                        "no Chromium is installed (apt-get install " + ChromiumExecutable.PACKAGE
                                                + ")")),
                        "prf-" + Ids.randomHex(random, 8),
                        options.startTimeout(),
                        options.commandTimeout());
                processes.put(owner, chromium);
            }
        }
        BrowserPage page = new BrowserPage(
                chromium,
                owner,
                "brg-" + Ids.randomHex(random, 8),
                originAllowed,
                clock,
                random,
                options.commandTimeout());
        synchronized (this) {
            pages.put(page.generation(), page);
        }
        return page;
    }

    /** The live page of this generation (a closed or crashed one is gone). */
    public synchronized Optional<BrowserPage> find(String generation) {
        BrowserPage page = pages.get(generation);
        return page != null && page.isAlive() ? Optional.of(page) : Optional.empty();
    }

    /** Closes one page; the owner's process and profile go with its last page. */
    public void close(String generation) {
        Chromium unused = null;
        BrowserPage page;
        synchronized (this) {
            page = pages.remove(generation);
            if (page == null) {
                return;
            }
            String owner = page.owner();
            if (pages.values().stream().noneMatch(p -> p.owner().equals(owner))) {
                unused = processes.remove(owner);
            }
        }
        page.close();
        if (unused != null) {
            unused.close();
        }
    }

    /** The owner left: all its pages close and its profile is deleted. */
    public void closeOwner(String owner) {
        Chromium chromium;
        synchronized (this) {
            pages.values().removeIf(p -> p.owner().equals(owner));
            chromium = processes.remove(owner);
        }
        if (chromium != null) {
            chromium.close();
        }
    }

    /** Live pages, in opening order. */
    public synchronized List<BrowserPage> live() {
        return pages.values().stream().filter(BrowserPage::isAlive).toList();
    }

    /** Live Chromium processes (one per owner with a browser). */
    public synchronized int processes() {
        return (int) processes.values().stream().filter(Chromium::isAlive).count();
    }

    /** Closes every page unused for the idle timeout (the reaper runs this periodically). */
    public void closeIdle() {
        Instant cutoff = clock.instant().minus(options.idleTimeout());
        List<String> idle = new ArrayList<>();
        synchronized (this) {
            pages.forEach((generation, page) -> {
                if (!page.isAlive() || page.lastUsed().isBefore(cutoff)) {
                    idle.add(generation);
                }
            });
        }
        for (String generation : idle) {
            log.info("closing browser {}: unused for {}", generation, options.idleTimeout());
            close(generation);
        }
    }

    @Override
    public void close() {
        reaper.shutdownNow();
        List<Chromium> all;
        synchronized (this) {
            all = new ArrayList<>(processes.values());
            processes.clear();
            pages.clear();
        }
        all.forEach(Chromium::close);
    }
}
