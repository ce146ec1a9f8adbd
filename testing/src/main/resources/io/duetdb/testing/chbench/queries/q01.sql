-- CH-benCHmark Q1: order lines per line number delivered since 2007.
select
    ol_number,
    sum(ol_quantity) as sum_qty,
    sum(ol_amount) as sum_amount,
    avg(ol_quantity) as avg_qty,
    avg(ol_amount) as avg_amount,
    count(*) as count_order
from
    order_line
where
    ol_delivery_d > timestamp '2007-01-02 00:00:00'
group by
    ol_number
order by
    ol_number
