package dev.lomicontrol.testing;

import dev.lomicontrol.ledger.Ledger;
import org.springframework.data.repository.CrudRepository;

/** What the {@link StoreSliceTest}s of one repository do before each test. */
public final class StoreSlices {

    private StoreSlices() {}

    /** The repository {@code type} from the ledger, with every row of its table deleted by the ledger's writer. */
    public static <R extends CrudRepository<?, ?>> R emptied(Ledger ledger, Class<R> type) {
        R repository = ledger.jdbc().repository(type);
        ledger.write(c -> {
            repository.deleteAll();
            return null;
        });
        return repository;
    }
}
