-- TPC-H Q15, top supplier; DATE = 1996-01-01.
-- Rewritten: the view revenue0 (create view / query / drop view) becomes a common table expression, with the
-- view's column list as aliases inside it (one statement; MySQL 8, MariaDB 10.2+ and DuckDB accept it).
with revenue0 as (
    select
        l_suppkey as supplier_no,
        sum(l_extendedprice * (1 - l_discount)) as total_revenue
    from
        lineitem
    where
        l_shipdate >= date '1996-01-01'
        and l_shipdate < date '1996-01-01' + interval '3' month
    group by
        l_suppkey
)
select
    s_suppkey,
    s_name,
    s_address,
    s_phone,
    total_revenue
from
    supplier,
    revenue0
where
    s_suppkey = supplier_no
    and total_revenue = (
        select
            max(total_revenue)
        from
            revenue0
    )
order by
    s_suppkey
