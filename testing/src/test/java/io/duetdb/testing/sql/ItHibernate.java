package io.duetdb.testing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.ConstraintMode;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.ForeignKey;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/**
 * A small Hibernate ORM application through Connector/J, unchanged from what it would be against MySQL 8.0: Hibernate
 * creates the schema from annotated entities (auto-increment keys, a foreign key, a unique column, an optimistic
 * version column), then the application persists, queries with joins, fetch joins, aggregates and pages, updates,
 * and deletes with cascades, and Hibernate drops the schema again.
 */
class ItHibernate {
    @RegisterExtension
    static final SqlCluster sqlCluster = new SqlCluster(1);

    @Entity(name = "Author")
    @Table(name = "orm_author")
    public static class Author {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;
        @Column(nullable = false, unique = true, length = 60)
        String name;
        LocalDate born;
        @OneToMany(mappedBy = "author", cascade = CascadeType.ALL, orphanRemoval = true)
        @OrderBy("title")
        List<Book> books = new ArrayList<>();
        @Version
        int version;

        public Author() {
        }

        Author(String name, LocalDate born) {
            this.name = name;
            this.born = born;
        }

        void add(Book book) {
            books.add(book);
            book.author = this;
        }
    }

    @Entity(name = "Book")
    @Table(name = "orm_book")
    public static class Book {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;
        @Column(nullable = false, length = 100)
        String title;
        @Column(precision = 8, scale = 2)
        BigDecimal price;
        @ManyToOne(fetch = FetchType.LAZY, optional = false)
        @JoinColumn(name = "author_id", foreignKey = @ForeignKey(name = "book_author", value = ConstraintMode.CONSTRAINT))
        Author author;

        public Book() {
        }

        Book(String title, String price) {
            this.title = title;
            this.price = new BigDecimal(price);
        }
    }

    private static SessionFactory sessionFactory() {
        return new Configuration().addAnnotatedClass(Author.class).addAnnotatedClass(Book.class)
                .setProperty(AvailableSettings.JAKARTA_JDBC_URL, sqlCluster.url())
                .setProperty(AvailableSettings.JAKARTA_JDBC_USER, "root")
                .setProperty(AvailableSettings.JAKARTA_JDBC_PASSWORD, "")
                .setProperty(AvailableSettings.HBM2DDL_AUTO, "create-drop")
                .setProperty(AvailableSettings.SHOW_SQL, "false")
                .buildSessionFactory();
    }

    @Test
    void anOrmApplicationRunsUnchanged() throws Exception {
        try (SessionFactory factory = sessionFactory()) {
            factory.inTransaction(session -> {
                Author ann = new Author("Ann", LocalDate.of(1970, 3, 1));
                ann.add(new Book("Zebras", "12.50"));
                ann.add(new Book("Apples", "8.00"));
                Author bo = new Author("Bo", LocalDate.of(1985, 7, 9));
                bo.add(new Book("Maps", "20.00"));
                session.persist(ann);
                session.persist(bo);
            });
            factory.inTransaction(session -> {
                List<String> titles = session.createSelectionQuery("select b.title from Book b join b.author a"
                        + " where a.name = :name order by b.title", String.class).setParameter("name", "Ann").getResultList();
                assertThat(titles).containsExactly("Apples", "Zebras");
                Author ann = session.createSelectionQuery("from Author a join fetch a.books where a.name = 'Ann'",
                        Author.class).getSingleResult();
                assertThat(ann.books).extracting(book -> book.title).containsExactly("Apples", "Zebras");
                List<Object[]> totals = session.createSelectionQuery("select a.name, count(b), sum(b.price) from Author a"
                        + " join a.books b group by a.name order by a.name", Object[].class).getResultList();
                assertThat(totals).hasSize(2);
                assertThat(totals.get(0)).containsExactly("Ann", 2L, new BigDecimal("20.50"));
                List<String> page = session.createSelectionQuery("select b.title from Book b order by b.price desc",
                        String.class).setFirstResult(1).setMaxResults(1).getResultList();
                assertThat(page).containsExactly("Zebras");
                ann.books.get(0).price = new BigDecimal("9.00");
                ann.born = LocalDate.of(1971, 3, 1);
            });
            factory.inTransaction(session -> {
                Author ann = session.createSelectionQuery("from Author where name = 'Ann'", Author.class)
                        .getSingleResult();
                assertThat(ann.born).isEqualTo(LocalDate.of(1971, 3, 1));
                assertThat(ann.version).isEqualTo(1);
                assertThat(ann.books.get(0).price).isEqualByComparingTo("9.00");
                session.remove(ann);
            });
            factory.inTransaction(session -> {
                assertThat(session.createSelectionQuery("select count(*) from Book", Long.class).getSingleResult())
                        .isEqualTo(1L);
                assertThat(session.createSelectionQuery("select a.name from Author a", String.class).getResultList())
                        .containsExactly("Bo");
            });
            // The database keeps the constraints Hibernate declared: a duplicate name and an orphan are refused.
            assertThatThrownBy(() -> factory.inTransaction(session -> session.persist(new Author("Bo", null))))
                    .isInstanceOf(PersistenceException.class);
            try (Connection connection = DriverManager.getConnection(sqlCluster.url());
                    Statement statement = connection.createStatement()) {
                assertThat(SqlTesting.rows(statement, "SHOW CREATE TABLE orm_book").get(0))
                        .contains("CONSTRAINT `book_author` FOREIGN KEY (`author_id`) REFERENCES `orm_author` (`id`)");
                assertThatThrownBy(() -> statement.execute("INSERT INTO orm_book (title, price, author_id)"
                        + " VALUES ('x', 1, 999)")).hasMessageContaining("foreign key constraint fails");
            }
        }
        try (Connection connection = DriverManager.getConnection(sqlCluster.url());
                Statement statement = connection.createStatement()) {
            // create-drop removed the schema when the factory closed.
            assertThat(SqlTesting.rows(statement, "SHOW TABLES LIKE 'orm_%'")).isEmpty();
        }
    }
}
