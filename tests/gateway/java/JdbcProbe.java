// pgjdbc through txngate: prints one "key=value" line per check for the test to assert on.
import java.sql.*;
import java.util.*;

public class JdbcProbe {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String table = args[1];
        Properties props = new Properties();
        props.setProperty("user", "txngate");
        try (Connection c = DriverManager.getConnection(url, props)) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY, name varchar(40) NOT NULL, score double precision, born date, at timestamptz, amount numeric(12,2), ok boolean)");
            }
            // batch insert
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 1; i <= 20; i++) {
                    ps.setLong(1, i);
                    ps.setString(2, "name-" + i);
                    ps.setDouble(3, i * 1.5);
                    ps.setDate(4, java.sql.Date.valueOf("2024-01-" + String.format("%02d", i)));
                    ps.setTimestamp(5, java.sql.Timestamp.valueOf("2024-03-01 12:00:00"));
                    ps.setBigDecimal(6, new java.math.BigDecimal(i + ".25"));
                    ps.setBoolean(7, i % 2 == 0);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                System.out.println("batch=" + counts.length + ":" + Arrays.stream(counts).sum());
            }
            // one PreparedStatement reused past prepareThreshold (server-prepared, binary results)
            StringBuilder got = new StringBuilder();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, name, score, born, amount, ok FROM " + table + " WHERE id = ?")) {
                for (int i = 1; i <= 8; i++) {
                    ps.setLong(1, i);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        got.append(rs.getLong(1)).append('/').append(rs.getString(2)).append('/').append(rs.getDouble(3)).append('/')
                           .append(rs.getDate(4)).append('/').append(rs.getBigDecimal(5)).append('/').append(rs.getBoolean(6)).append(';');
                    }
                }
            }
            System.out.println("reused=" + got);
            // a transaction
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE " + table + " SET score = -1 WHERE id = 1");
                try (ResultSet rs = s.executeQuery("SELECT score FROM " + table + " WHERE id = 1")) {
                    rs.next();
                    System.out.println("in_txn=" + rs.getDouble(1));
                }
            }
            c.rollback();
            c.setAutoCommit(true);
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT score FROM " + table + " WHERE id = 1")) {
                rs.next();
                System.out.println("after_rollback=" + rs.getDouble(1));
            }
            DatabaseMetaData md = c.getMetaData();
            System.out.println("product=" + md.getDatabaseProductName() + " " + md.getDatabaseMajorVersion());
            try (ResultSet rs = md.getTables(null, "public", table, new String[]{"TABLE"})) {
                List<String> names = new ArrayList<>();
                while (rs.next()) names.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
                System.out.println("tables=" + names);
            }
            try (ResultSet rs = md.getColumns(null, "public", table, null)) {
                List<String> cols = new ArrayList<>();
                while (rs.next()) cols.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("TYPE_NAME") + ":" + rs.getInt("COLUMN_SIZE") + ":" + rs.getString("IS_NULLABLE"));
                System.out.println("columns=" + cols);
            }
            try (ResultSet rs = md.getPrimaryKeys(null, "public", table)) {
                List<String> pk = new ArrayList<>();
                while (rs.next()) pk.add(rs.getString("COLUMN_NAME") + ":" + rs.getString("PK_NAME") + ":" + rs.getInt("KEY_SEQ"));
                System.out.println("pk=" + pk);
            }
            // Hibernate's key generation: a sequence of its own, stepped by 50, read with a prepared nextval
            try (Statement s = c.createStatement()) {
                s.execute("CREATE SEQUENCE " + table + "_seq START WITH 1 INCREMENT BY 50");
            }
            StringBuilder values = new StringBuilder();
            try (PreparedStatement ps = c.prepareStatement("SELECT nextval('" + table + "_seq')")) {
                for (int i = 0; i < 6; i++) {
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        values.append(rs.getLong(1)).append(',');
                    }
                }
            }
            System.out.println("nextval=" + values);
            try (ResultSet rs = md.getTables(null, "public", table + "_seq", new String[]{"SEQUENCE"})) {
                List<String> names = new ArrayList<>();
                while (rs.next()) names.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
                System.out.println("sequences=" + names);
            }
        }
    }
}
