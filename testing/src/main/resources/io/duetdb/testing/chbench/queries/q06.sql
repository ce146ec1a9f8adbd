-- CH-benCHmark Q6: revenue of the lines delivered from 1999 to 2019.
select
    sum(ol_amount) as revenue
from
    order_line
where
    ol_delivery_d >= timestamp '1999-01-01 00:00:00'
    and ol_delivery_d < timestamp '2020-01-01 00:00:00'
    and ol_quantity between 1 and 100000
