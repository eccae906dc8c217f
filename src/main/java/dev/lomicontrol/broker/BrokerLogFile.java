package dev.lomicontrol.broker;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.FileSize;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * The broker's log file, next to stderr: {@code lomi.log.file} (set by {@code serve}: under
 * {@code $XDG_STATE_HOME/lomi-control/} for the default data directory, under
 * {@code <data-dir>/log/} for an explicit one; {@code none} turns it off), rotated at
 * {@code lomi.log.max-size} keeping {@code lomi.log.max-files} old files. Attached after Spring
 * Boot configured logging, so the levels of {@code logging.level.*} apply to it too.
 */
public final class BrokerLogFile implements ApplicationListener<ApplicationPreparedEvent> {

    /** The listener {@code serve} adds to its application. */
    public static BrokerLogFile listener() {
        return new BrokerLogFile();
    }

    /** The stderr pattern of {@code logback.xml}: the message through {@link VisibleMessageConverter}. */
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{36} - %visibleMsg%n";

    @Override
    public void onApplicationEvent(ApplicationPreparedEvent event) {
        Environment environment = event.getApplicationContext().getEnvironment();
        String file = environment.getProperty("lomi.log.file", "none");
        if (file.isBlank() || file.equals("none")) {
            return;
        }
        attach(
                Path.of(file).toAbsolutePath(),
                FileSize.valueOf(environment.getProperty("lomi.log.max-size", "10MB")),
                environment.getProperty("lomi.log.max-files", Integer.class, 5));
    }

    /**
     * What of the log a sandboxed shell must not see (security review 2026-12-06, N6: it holds every
     * session's decision summaries, pairing requests and refused URLs): its directory when that is
     * the broker's own ({@code lomi-control/}, the default under {@code $XDG_STATE_HOME}); for a log
     * elsewhere ({@code lomi.log.file} set by the admin) the file and its rotations ({@code .1} …).
     * Empty when there is no log file.
     */
    public static List<Path> hiddenFromShells(Environment environment) {
        String file = environment.getProperty("lomi.log.file", "none");
        if (file.isBlank() || file.equals("none")) {
            return List.of();
        }
        Path log = Path.of(file).toAbsolutePath().normalize();
        Path directory = log.getParent();
        if (directory != null
                && directory.getFileName() != null
                && directory.getFileName().toString().equals("lomi-control")) {
            return List.of(directory);
        }
        int maxFiles = Math.max(1, environment.getProperty("lomi.log.max-files", Integer.class, 5));
        List<Path> files = new ArrayList<>(List.of(log));
        for (int i = 1; i <= maxFiles; i++) {
            files.add(log.resolveSibling(log.getFileName() + "." + i));
        }
        return List.copyOf(files);
    }

    static void attach(Path file, FileSize maxSize, int maxFiles) {
        try {
            Files.createDirectories(
                    file.getParent(),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the log directory " + file.getParent(), e);
        }
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(VisibleMessageConverter.layout(context, PATTERN));
        encoder.start();
        RollingFileAppender<ILoggingEvent> appender = new RollingFileAppender<>();
        appender.setContext(context);
        appender.setName("FILE");
        appender.setFile(file.toString());
        FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
        rolling.setContext(context);
        rolling.setParent(appender);
        rolling.setFileNamePattern(file + ".%i");
        rolling.setMinIndex(1);
        rolling.setMaxIndex(Math.max(1, maxFiles));
        rolling.start();
        SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
        trigger.setContext(context);
        trigger.setMaxFileSize(maxSize);
        trigger.start();
        appender.setRollingPolicy(rolling);
        appender.setTriggeringPolicy(trigger);
        appender.setEncoder(encoder);
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
    }
}
