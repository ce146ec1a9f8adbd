-- CH-benCHmark Q18: the orders worth more than 200 with their customers.
select
    c_last,
    c_id,
    o_id,
    o_entry_d,
    o_ol_cnt,
    sum(ol_amount) as amount_sum
from
    customer,
    orders,
    order_line
where
    c_id = o_c_id
    and c_w_id = o_w_id
    and c_d_id = o_d_id
    and ol_w_id = o_w_id
    and ol_d_id = o_d_id
    and ol_o_id = o_id
group by
    o_id,
    o_w_id,
    o_d_id,
    c_id,
    c_last,
    o_entry_d,
    o_ol_cnt
having
    sum(ol_amount) > 200
order by
    amount_sum desc,
    o_entry_d
