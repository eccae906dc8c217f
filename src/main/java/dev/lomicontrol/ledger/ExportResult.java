package dev.lomicontrol.ledger;

import java.nio.file.Path;

/** A consistent backup written by {@link LedgerMaintenance#export}. */
public record ExportResult(Path file, String sha256, long bytes, long operations, long historyHead) {}
