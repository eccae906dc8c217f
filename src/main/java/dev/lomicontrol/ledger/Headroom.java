package dev.lomicontrol.ledger;

import java.util.Optional;

/**
 * The ledger's rows against its caps as the writer last saw them (cheap to read on every call; may
 * lag by the writes of one batch). Used for warnings to the admin and the hint agents get.
 */
public record Headroom(long receipts, int receiptCap, long epochs, int epochCap) {

    public CapLevel receiptLevel() {
        return CapLevel.of(receipts, receiptCap);
    }

    public CapLevel epochLevel() {
        return CapLevel.of(epochs, epochCap);
    }

    /**
     * For agents: a sentence when receipts or epochs passed 80 % of their cap, saying that new work
     * (or a new connection) may soon be refused with RESOURCE_EXHAUSTED until the admin frees rows.
     */
    public Optional<String> agentWarning() {
        CapLevel receipt = receiptLevel();
        CapLevel epoch = epochLevel();
        if (!receipt.warns() && !epoch.warns()) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder("the broker's ledger holds ");
        if (receipt.warns()) {
            text.append(receipts)
                    .append(" of ")
                    .append(receiptCap)
                    .append(" receipts (")
                    .append(receipt.words())
                    .append(')');
        }
        if (epoch.warns()) {
            text.append(receipt.warns() ? " and " : "")
                    .append(epochs)
                    .append(" of ")
                    .append(epochCap)
                    .append(" retry epochs (")
                    .append(epoch.words())
                    .append(')');
        }
        boolean full = receipt == CapLevel.FULL || epoch == CapLevel.FULL;
        text.append(
                        full
                                ? ": new work is refused with RESOURCE_EXHAUSTED"
                                : ": new work may soon be refused with RESOURCE_EXHAUSTED")
                .append(
                        " until the admin frees rows ('lomi-control console ledger status' shows the steps); finish or settle what is running,"
                                + " and do not retry refused work under new keys");
        return Optional.of(text.toString());
    }
}
