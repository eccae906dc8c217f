package dev.lomicontrol.broker;

import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Holds the broker's JVM open (it has no web server) until the context stops, e.g. on SIGTERM or
 * SIGINT through Spring's shutdown hook.
 */
@Component
class KeepAlive implements SmartLifecycle {

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile @Nullable Thread thread;

    @Override
    public void start() {
        Thread holder = new Thread(
                () -> {
                    try {
                        stopped.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "broker-keep-alive");
        holder.setDaemon(false);
        holder.start();
        thread = holder;
    }

    @Override
    public void stop() {
        stopped.countDown();
        thread = null;
    }

    @Override
    public boolean isRunning() {
        return thread != null;
    }
}
