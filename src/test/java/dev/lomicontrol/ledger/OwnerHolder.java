package dev.lomicontrol.ledger;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;

/** Child-JVM helper: opens the ledger, says "ready", and holds it until stdin closes. args: storeDir */
public final class OwnerHolder {

    public static void main(String[] args) throws Exception {
        try (Ledger ledger =
                Ledger.open(Path.of(args[0]), LedgerProperties.defaults(), Clock.systemUTC(), new SecureRandom())) {
            System.out.println("ready " + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the parent closes our stdin
            }
        }
    }
}
