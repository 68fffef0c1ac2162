// Embedded Neo4j Community launcher for graphmem (single-file source launch, no build step).
//
// Opens the database under HOME with the settings in HOME/neo4j.conf (written by graphmem: Bolt on
// 127.0.0.1, authentication on, page cache size, LOAD CSV file URLs off, an empty import folder),
// sets the `neo4j` user's password from the environment variable GRAPHMEM_NEO4J_PASSWORD (kept off
// the command line), prints one "ready" line and runs until it receives SIGTERM, when it shuts the
// database down cleanly.
//
// Usage: java -cp 'LIB/*' EmbeddedNeo4j.java HOME
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

public class EmbeddedNeo4j {
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: EmbeddedNeo4j HOME");
            System.exit(2);
        }
        String password = System.getenv("GRAPHMEM_NEO4J_PASSWORD");
        if (password == null || password.length() < 8) {
            System.err.println("GRAPHMEM_NEO4J_PASSWORD must be set to at least 8 characters");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        DatabaseManagementService service = new DatabaseManagementServiceBuilder(home)
                .loadPropertiesFromFile(home.resolve("neo4j.conf"))
                .build();
        setPassword(service.database("system"), password);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.shutdown();
            stopped.countDown();
        }));
        System.out.println("graphmem-neo4j ready");
        System.out.flush();
        stopped.await();
    }

    private static void setPassword(GraphDatabaseService system, String password) {
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PLAINTEXT PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
        } catch (RuntimeException e) {
            // Neo4j refuses to "change" a password to the one already set: nothing to do then.
            if (!String.valueOf(e.getMessage()).toLowerCase().contains("same")) {
                throw e;
            }
        }
    }
}
